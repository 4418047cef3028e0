// Maps the exceptions of a headless command to one stderr line and the documented exit codes.
#include <cstdio>
#include <exception>
#include <new>

#include "cli/commands.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"

namespace peviz::cli {

int run_guarded(const std::function<void()>& fn) {
  try {
    fn();
    return 0;
  } catch (const UsageExit&) {
    return 2;
  } catch (const FailureExit&) {
    return 1;
  } catch (const Interrupted& e) {
    // The temporary file is already gone (core/io/atomic_file); 128 + signal is the shell's convention.
    std::fprintf(stderr, "peviz: %s; no output file was written\n", e.what());
    return 128 + e.signal;
  } catch (const ParamError& e) {
    std::fprintf(stderr, "peviz: --%s: %s\n", e.param.c_str(), e.rule.c_str());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "peviz: out of memory; try a smaller --seq-len or --d-model\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "peviz: %s\n", e.what());
    return 1;
  }
}

}  // namespace peviz::cli
