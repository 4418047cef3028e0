// The one exception type core throws for bad parameters or bad files; front ends catch it.
#pragma once
#include <stdexcept>
#include <string>

namespace peviz {

// A parameter outside its allowed range, an impossible combination, or an unreadable file.
// `param` is the parameter's CLI spelling without dashes ("d-model"); `rule` says what is allowed.
// The CLI prints "peviz: --<param>: <rule>" and exits 2; the GUI shows what() in its status line.
struct ParamError : std::runtime_error {
  std::string param;
  std::string rule;
  ParamError(std::string p, std::string r)
      : std::runtime_error(p + ": " + r), param(std::move(p)), rule(std::move(r)) {}
};

}  // namespace peviz
