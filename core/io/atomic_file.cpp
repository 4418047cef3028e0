// All-or-nothing file writes (temporary file + rename) and bounded whole-file reads.
#include "core/io/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <csignal>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"

namespace peviz {

namespace {
volatile std::sig_atomic_t g_signal = 0;     // the signal that arrived under a guard, 0 if none
volatile std::sig_atomic_t g_thrown = 0;     // it was reported as Interrupted
int g_guards = 0;                            // nesting depth: only the outermost guard installs
struct sigaction g_previous[2];
constexpr int kSignals[2] = {SIGINT, SIGTERM};

extern "C" void note_signal(int sig) { g_signal = sig; }
}  // namespace

Interrupted::Interrupted(int sig)
    : std::runtime_error(sig == SIGTERM ? "interrupted by SIGTERM" : "interrupted by SIGINT"), signal(sig) {}

InterruptGuard::InterruptGuard() {
  if (g_guards++ > 0) return;
  g_signal = 0;
  g_thrown = 0;
  struct sigaction sa {};
  sa.sa_handler = note_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 2; ++i) ::sigaction(kSignals[i], &sa, &g_previous[i]);
}

InterruptGuard::~InterruptGuard() {
  if (--g_guards > 0) return;
  for (int i = 0; i < 2; ++i) ::sigaction(kSignals[i], &g_previous[i], nullptr);
  const int pending = g_thrown ? 0 : int(g_signal);
  g_signal = 0;
  g_thrown = 0;
  if (pending != 0) std::raise(pending);
}

void throw_if_interrupted() {
  if (g_signal == 0 || g_guards == 0) return;
  g_thrown = 1;
  throw Interrupted(g_signal);
}

void check_output_size(const std::string& path, std::uint64_t bytes, bool exact, std::uint64_t max_output,
                       const std::string& what) {
  // Two sizes that print alike ("64 GiB" and "64 GiB") are given in bytes as well.
  auto both = [](std::uint64_t a, std::uint64_t b) {
    std::string ta = human_bytes(double(a)), tb = human_bytes(double(b));
    if (ta == tb) ta += " (" + std::to_string(a) + " bytes)", tb += " (" + std::to_string(b) + " bytes)";
    return std::pair{ta, tb};
  };
  const std::string verb = exact ? "would take " : "could take up to ";
  if (bytes > max_output) {
    const auto [size, limit] = both(bytes, max_output);
    throw ParamError("max-output", what + " " + verb + size + ", over the --max-output limit of " + limit);
  }
  struct stat st {};
  if (path == "-" || (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))) return;
  const std::size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  struct statvfs fs {};
  if (::statvfs(folder.c_str(), &fs) != 0)
    throw ParamError("out", "cannot write " + path + ": " + folder + ": " + std::strerror(errno));
  const std::uint64_t free_bytes = std::uint64_t(fs.f_bavail) * std::uint64_t(fs.f_frsize);
  if (bytes > free_bytes) {
    const auto [size, free_text] = both(bytes, free_bytes);
    throw ParamError("out", what + " " + verb + size + " but " + folder + " has " + free_text + " free");
  }
}

void check_can_write(const std::string& path, const std::string& param) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw ParamError(param, "cannot write " + path + ": it is a directory");
    if (!S_ISREG(st.st_mode)) return;  // a device or pipe is written in place
  }
  std::string tmpl = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw ParamError(param, "cannot write " + path + ": " + std::strerror(errno));
  ::close(fd);
  std::remove(tmpl.c_str());
}

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
  InterruptGuard guard;  // from here until the rename, Ctrl+C removes the temporary file first
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
