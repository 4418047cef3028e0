// Test helper: what a call prints on stderr, with file descriptor 2 sent to a temporary file meanwhile.
#pragma once
#include <cstdio>
#include <string>
#include <unistd.h>

#include <catch2/catch.hpp>

template <class F>
std::string stderr_of(F&& fn) {
  std::FILE* tmp = std::tmpfile();
  REQUIRE(tmp);
  std::fflush(stderr);
  const int saved = ::dup(2);
  ::dup2(::fileno(tmp), 2);
  fn();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::rewind(tmp);
  std::string err;
  for (int c = std::fgetc(tmp); c != EOF; c = std::fgetc(tmp)) err += char(c);
  std::fclose(tmp);
  return err;
}
