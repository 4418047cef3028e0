// All-or-nothing file writes (temporary file + rename) and bounded whole-file reads.
#include "core/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "core/errors.hpp"

namespace peviz {

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill,
                           const std::string& param) {
  // A device or pipe (/dev/null, /dev/stdout, a FIFO) cannot be replaced by rename, and must not
  // be: write straight into it.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) throw ParamError(param, "cannot write " + path + ": it is a directory");
    std::ofstream os(path, std::ios::binary);
    if (!os) throw ParamError(param, "cannot write " + path + ": " + std::strerror(errno));
    fill(os);
    os.flush();
    if (!os) throw ParamError(param, "cannot write " + path + ": write failed");
    return;
  }
  std::string tmpl = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw ParamError(param, "cannot write " + path + ": " + std::strerror(errno));
  // mkstemp creates 0600; give the final file the usual 0666 & ~umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  ::close(fd);
  const std::string tmp = tmpl;
  auto fail = [&](const std::string& why) {
    std::remove(tmp.c_str());
    throw ParamError(param, "cannot write " + path + ": " + why);
  };
  {
    std::ofstream os(tmp, std::ios::binary | std::ios::trunc);
    if (!os) fail(std::strerror(errno));
    try {
      fill(os);
    } catch (...) {
      os.close();
      std::remove(tmp.c_str());
      throw;
    }
    os.flush();
    if (!os) fail("write failed (disk full?)");
    os.close();
    if (!os) fail("close failed (disk full?)");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail(std::strerror(errno));
}

std::string read_file_bytes(const std::string& path, const std::string& param, std::size_t max_bytes) {
  std::ifstream is(path, std::ios::binary);
  if (!is) throw ParamError(param, "cannot open " + path + ": " + std::strerror(errno));
  is.seekg(0, std::ios::end);
  const std::streamoff size = is.tellg();
  if (size < 0) throw ParamError(param, "cannot read " + path);
  if (std::size_t(size) > max_bytes)
    throw ParamError(param, path + " is " + std::to_string(size) + " bytes, over the " + std::to_string(max_bytes) +
                                " byte limit");
  is.seekg(0);
  std::string bytes(std::size_t(size), '\0');
  if (!is.read(bytes.data(), size)) throw ParamError(param, "cannot read " + path);
  return bytes;
}

}  // namespace peviz
