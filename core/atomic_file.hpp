// Writing a file all-or-nothing: into a temporary file in the target folder, then rename.
#pragma once
#include <functional>
#include <iosfwd>
#include <string>

namespace peviz {

// Calls `fill` with a stream on "<path>.tmp-XXXXXX", flushes, checks for errors, renames over
// `path`. On any failure the temporary file is removed and ParamError(param, reason) is thrown,
// so no partial file is ever left behind. An existing non-regular target (a device such as
// /dev/null, or a FIFO) is written in place instead; a directory is refused.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill,
                           const std::string& param = "out");

// Reads a whole file; throws ParamError(param, ...) when it cannot, or when it exceeds max_bytes.
std::string read_file_bytes(const std::string& path, const std::string& param,
                            std::size_t max_bytes = std::size_t(1) << 31);

}  // namespace peviz
