// File > Open's folder listing, filter, selection and recent files (file_browser.hpp). No ImGui.
#include "app/model/file_browser.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <system_error>
#include <utility>

#include "app/model/figure_io.hpp"
#include "core/train/experiment.hpp"

namespace peviz::app {

namespace fs = std::filesystem;

namespace {

// A file's kind from its name alone, in open_file's order (a lab file is found by its contents later).
EntryKind kind_from_name(const fs::path& name) {
  const std::string ext = name.extension().string();
  if (is_figure_file_name(name.string())) return EntryKind::figure;
  if (ext == ".json") return EntryKind::model;
  if (ext == ".npy" || ext == ".safetensors") return EntryKind::table;
  return EntryKind::other;
}

bool filter_passes(const FileEntry& e, FileFilter f) {
  if (f == FileFilter::all || e.kind == EntryKind::parent) return true;
  if (e.name.front() == '.') return false;
  switch (e.kind) {
    case EntryKind::folder: return true;
    case EntryKind::figure: return f == FileFilter::peviz || f == FileFilter::figures;
    case EntryKind::model: return f == FileFilter::peviz || f == FileFilter::models;
    case EntryKind::table: return f == FileFilter::peviz || f == FileFilter::tables;
    case EntryKind::experiment: return f == FileFilter::peviz || f == FileFilter::experiments;
    default: return false;
  }
}

// Up to this many .json / .safetensors files in a folder, their first bytes are read at once, so that every
// filter labels lab experiments as such; past it only the filters that must tell them apart read them.
constexpr int kHeadsReadAlways = 1000;

bool needs_contents(const FileBrowser& b) {
  if (b.filter == FileFilter::models || b.filter == FileFilter::tables || b.filter == FileFilter::experiments) return true;
  const auto candidate = [](const FileEntry& e) { return e.kind == EntryKind::model || e.kind == EntryKind::table; };
  return std::count_if(b.entries.begin(), b.entries.end(), candidate) <= kHeadsReadAlways;
}

// Tells lab experiments and runs from models' config.json and learned tables by their first bytes.
void read_contents(FileBrowser& b) {
  if (std::exchange(b.contents_read, true)) return;
  for (FileEntry& e : b.entries)
    if ((e.kind == EntryKind::model || e.kind == EntryKind::table) && train::is_lab_file((b.folder / e.name).string()))
      e.kind = EntryKind::experiment;
}

std::string lowercase_name(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool listed_before(const FileEntry& a, const FileEntry& b) {
  const auto rank = [](EntryKind k) { return k == EntryKind::parent ? 0 : k == EntryKind::folder ? 1 : 2; };
  if (rank(a.kind) != rank(b.kind)) return rank(a.kind) < rank(b.kind);
  const std::string la = lowercase_name(a.name), lb = lowercase_name(b.name);
  return la != lb ? la < lb : a.name < b.name;
}

// The folder's entries, sorted; an error code when it cannot be read. Entries that vanish meanwhile are left out.
std::vector<FileEntry> read_entries(const fs::path& folder, std::error_code& ec) {
  std::vector<FileEntry> entries;
  if (folder != folder.root_path()) entries.push_back({"..", EntryKind::parent});
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    const std::string name = it->path().filename().string();
    if (it->is_directory(type_ec)) entries.push_back({name, EntryKind::folder});
    else if (!type_ec) entries.push_back({name, kind_from_name(it->path().filename())});
  }
  std::sort(entries.begin(), entries.end(), listed_before);
  return entries;
}

void apply_filter(FileBrowser& b, const std::string& keep_name) {
  if (needs_contents(b)) read_contents(b);
  b.shown.clear();
  b.selected = -1;
  for (int i = 0; i < int(b.entries.size()); ++i) {
    const FileEntry& e = b.entries[std::size_t(i)];
    if (!filter_passes(e, b.filter)) continue;
    if (e.name == keep_name && e.kind != EntryKind::parent) b.selected = int(b.shown.size());
    b.shown.push_back(i);
  }
  if (b.selected < 0 && !b.shown.empty())
    b.selected = b.entries[std::size_t(b.shown[0])].kind == EntryKind::parent && b.shown.size() > 1 ? 1 : 0;
  b.follow_selection = true;
}

fs::path resolve_typed_path(const FileBrowser& b, const std::string& text) {
  fs::path p = text;
  const char* home = std::getenv("HOME");
  if (home && *home && (text == "~" || text.rfind("~/", 0) == 0)) p = fs::path(home) / text.substr(std::min<std::size_t>(2, text.size()));
  std::error_code ec;
  if (p.is_relative()) p = (b.folder.empty() ? fs::current_path(ec) : b.folder) / p;
  return p.lexically_normal();
}

}  // namespace

const char* entry_kind_label(EntryKind k) {
  switch (k) {
    case EntryKind::figure: return "figure";
    case EntryKind::model: return "model";
    case EntryKind::table: return "table";
    case EntryKind::experiment: return "experiment";
    default: return "";
  }
}

namespace {
// Whether `path` (absolute, normal) is b.confined_to or lies under it; true when the browser is not confined.
bool allowed(const FileBrowser& b, const fs::path& path) {
  if (b.confined_to.empty()) return true;
  std::error_code ec;  // symbolic links resolved: a link inside that points out is out
  const fs::path root = fs::weakly_canonical(b.confined_to, ec), real = fs::weakly_canonical(path, ec);
  const auto [end, _] = std::mismatch(root.begin(), root.end(), real.begin(), real.end());
  return end == root.end() || (std::next(end) == root.end() && end->empty());  // "root/" ends in an empty element
}
}  // namespace

bool list_folder(FileBrowser& b, const fs::path& folder, const std::string& select_name) {
  std::error_code ec;
  fs::path abs = fs::absolute(folder, ec).lexically_normal();
  if (!abs.has_filename() && abs != abs.root_path()) abs = abs.parent_path();  // "a/b/" -> "a/b"
  if (!allowed(b, abs)) {
    b.problem = "Cannot list " + abs.string() + ": this run stays inside " + b.confined_to.string();
    return false;
  }
  std::vector<FileEntry> entries;
  if (fs::is_directory(abs, ec)) entries = read_entries(abs, ec);
  else if (!ec || ec == std::errc::no_such_file_or_directory)
    ec = std::make_error_code(fs::exists(abs, ec) ? std::errc::not_a_directory : std::errc::no_such_file_or_directory);
  if (ec) {
    b.problem = "Cannot list " + abs.string() + ": " + ec.message();
    return false;
  }
  b.folder = abs;
  b.entries = std::move(entries);
  b.contents_read = false;
  b.path_text = abs.string();
  b.problem.clear();
  apply_filter(b, select_name);
  return true;
}

fs::path start_folder(const std::vector<std::string>& recent_files) {
  std::error_code ec;
  for (const std::string& f : recent_files)
    if (const fs::path dir = fs::path(f).parent_path(); fs::is_directory(dir, ec)) return dir;
  return fs::current_path(ec);
}

void start_browsing(FileBrowser& b, const std::vector<std::string>& recent_files) {
  const fs::path asked = std::exchange(b.start_folder, {});
  if (!asked.empty() && list_folder(b, asked)) return;
  const std::string why = asked.empty() ? "" : b.problem;  // a missing --open folder is said, the listing falls back
  std::error_code ec;
  if (!list_folder(b, start_folder(recent_files))) list_folder(b, fs::current_path(ec));
  if (!why.empty()) b.problem = why;
}

void set_filter(FileBrowser& b, FileFilter f) {
  const bool has = b.selected >= 0 && b.selected < int(b.shown.size());
  const std::string keep = has ? b.entries[std::size_t(b.shown[std::size_t(b.selected)])].name : "";
  b.filter = f;
  apply_filter(b, keep);
}

void move_selection(FileBrowser& b, int delta) {
  if (b.shown.empty()) return;
  b.selected = std::clamp(b.selected < 0 ? 0 : b.selected + delta, 0, int(b.shown.size()) - 1);
  b.follow_selection = true;
}

bool go_up(FileBrowser& b) {
  if (b.folder.empty() || b.folder == b.folder.root_path()) return false;
  return list_folder(b, b.folder.parent_path(), b.folder.filename().string());
}

std::string activate(FileBrowser& b, int row) {
  if (row < 0) row = b.selected;
  if (row < 0 || row >= int(b.shown.size())) return "";
  b.selected = row;
  const FileEntry e = b.entries[std::size_t(b.shown[std::size_t(row)])];
  if (e.kind == EntryKind::parent) go_up(b);
  else if (e.kind == EntryKind::folder) list_folder(b, b.folder / e.name);
  else return (b.folder / e.name).string();
  return "";
}

std::string activate_path_text(FileBrowser& b) {
  if (b.path_text.empty()) return "";
  const fs::path p = resolve_typed_path(b, b.path_text);
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    list_folder(b, p);
    return "";
  }
  if (fs::exists(p, ec) && !allowed(b, p)) {
    b.problem = "Cannot open " + p.string() + ": this run stays inside " + b.confined_to.string();
    return "";
  }
  if (fs::exists(p, ec)) return p.string();  // open_file says what is wrong with it, if anything
  b.problem = "No such file or folder: " + p.string();
  return "";
}

void remember_recent_file(std::vector<std::string>& recent, const std::string& path) {
  std::error_code ec;
  const std::string abs = fs::absolute(path, ec).lexically_normal().string();
  recent.erase(std::remove(recent.begin(), recent.end(), abs), recent.end());
  recent.insert(recent.begin(), abs);
  if (recent.size() > kMostRecentFiles) recent.resize(kMostRecentFiles);
}

}  // namespace peviz::app
