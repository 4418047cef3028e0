// Writing a file all-or-nothing: into a temporary file in the target folder, then rename.
#pragma once
#include <functional>
#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>

namespace peviz {

// SIGINT or SIGTERM arrived while an InterruptGuard was alive; thrown by throw_if_interrupted().
struct Interrupted : std::runtime_error {
  int signal;
  explicit Interrupted(int sig);
};

// While alive, SIGINT and SIGTERM only set a flag that long writers poll with throw_if_interrupted()
// (core/io/array_stream does after every block), so the temporary file can be removed before exiting.
// On destruction the previous handlers come back; a signal that arrived but was never thrown as
// Interrupted (a short write that does not poll) is raised again then, so it is not lost.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
};
// Throws Interrupted when a guarded signal has arrived.
void throw_if_interrupted();

// Refuses an output of `bytes` before anything is written: over `max_output` bytes (ParamError
// "max-output") or over the free space of the folder `path` would be written in (statvfs; ParamError
// "out"). `what` names the output ("the NPY file"); `exact` false says `bytes` is an upper bound.
// "-" (standard output) and existing non-regular targets (/dev/null) have no free-space check.
void check_output_size(const std::string& path, std::uint64_t bytes, bool exact, std::uint64_t max_output,
                       const std::string& what);

// Calls `fill` with a stream on "<path>.tmp-XXXXXX", flushes, checks for errors, renames over
// `path`. On any failure the temporary file is removed and ParamError(param, reason) is thrown,
// so no partial file is ever left behind, also after Ctrl+C (the fill runs under an InterruptGuard).
// An existing non-regular target (a device such as
// /dev/null, or a FIFO) is written in place instead; a directory is refused.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill,
                           const std::string& param = "out");

// Before a long computation whose result goes to `path`: refuses now, as write_file_atomically would later, a
// folder that is missing or not writable, or a directory in the file's place (ParamError(param, "cannot write
// ...")). Leaves nothing behind: the probe is a temporary file created and removed in the target folder.
void check_can_write(const std::string& path, const std::string& param = "out");

// Reads a whole file; throws ParamError(param, ...) when it cannot, or when it exceeds max_bytes.
std::string read_file_bytes(const std::string& path, const std::string& param,
                            std::size_t max_bytes = std::size_t(1) << 31);

}  // namespace peviz
