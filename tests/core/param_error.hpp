// Test helper: runs a validating call and returns "param: rule" of the ParamError it throws ("" if none).
#pragma once
#include <string>

#include "core/base/errors.hpp"

template <class F>
std::string param_error_of(F&& fn) {
  try {
    fn();
  } catch (const peviz::ParamError& e) {
    return e.param + ": " + e.rule;
  }
  return "";
}
