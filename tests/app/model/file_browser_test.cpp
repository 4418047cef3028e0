// Tests for app/model/file_browser: listing order, the filters, "..", entering and leaving folders, bad folders,
// typed paths, where the dialog starts, and the recent files.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/model/file_browser.hpp"
#include "core/train/experiment.hpp"
#include "tests/temp_path.hpp"

using namespace peviz;
using namespace peviz::app;
namespace fs = std::filesystem;

namespace {

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// Beta/ alpha/ .hidden/ and files of every kind the browser tells apart.
fs::path sample_folder() {
  const fs::path d = fs::absolute(fresh_temp_dir("file-browser")).lexically_normal();
  for (const char* sub : {"Beta", "alpha", ".hidden", "alpha/deeper"}) fs::create_directories(d / sub);
  write_text(d / "zeta.png", "not really a png");
  write_text(d / "Apple.npy", "x");
  write_text(d / "config.json", "{\"model_type\": \"llama\"}");
  write_text(d / "run.json", std::string("{\"format\": \"") + train::kExperimentFormat + "\", \"runs\": []}");
  write_text(d / "table.safetensors", "x");
  write_text(d / "fig.svg", "<svg/>");
  write_text(d / "notes.txt", "hello");
  write_text(d / ".dotfile.png", "x");
  write_text(d / "alpha" / "inner.pdf", "%PDF");
  return d;
}

// The names shown, in order.
std::vector<std::string> shown_names(const FileBrowser& b) {
  std::vector<std::string> out;
  for (const int i : b.shown) out.push_back(b.entries[std::size_t(i)].name);
  return out;
}

std::string selected_name(const FileBrowser& b) {
  return b.selected < 0 ? "" : b.entries[std::size_t(b.shown[std::size_t(b.selected)])].name;
}

using Names = std::vector<std::string>;

// The sample folder (absolute), listed; removed afterwards.
struct SampleListed {
  fs::path d = sample_folder();
  FileBrowser b;
  SampleListed() { REQUIRE(list_folder(b, d)); }
  ~SampleListed() {
    std::error_code ec;
    fs::permissions(d / "locked", fs::perms::owner_all, ec);
    fs::remove_all(d, ec);
  }
};

}  // namespace

TEST_CASE_METHOD(SampleListed, "a folder lists .., its folders, then its files, each by name with case aside") {
  CHECK(b.folder == d);
  CHECK(b.path_text == b.folder.string());
  CHECK(b.problem.empty());
  CHECK(shown_names(b) == Names{"..", "alpha", "Beta", "Apple.npy", "config.json", "fig.svg", "run.json",
                                "table.safetensors", "zeta.png"});
  CHECK(selected_name(b) == "alpha");  // the first entry after ".."
  // A small folder's .json and .safetensors heads are read at once: the lab manifest is labelled an experiment
  // under the first filter too (the shipped assets/lab read "table" and "model" before).
  CHECK(b.contents_read);
  CHECK(std::string(entry_kind_label(b.entries[std::size_t(b.shown[6])].kind)) == "experiment");
  CHECK(std::string(entry_kind_label(b.entries[std::size_t(b.shown[4])].kind)) == "model");
  set_filter(b, FileFilter::all);      // every file, the hidden ones too
  CHECK(shown_names(b) == Names{"..", ".hidden", "alpha", "Beta", ".dotfile.png", "Apple.npy", "config.json", "fig.svg",
                                "notes.txt", "run.json", "table.safetensors", "zeta.png"});
  CHECK(selected_name(b) == "alpha");  // the selection stays on its entry
}

TEST_CASE_METHOD(SampleListed, "each filter shows the folders and its own kind of file") {
  const Names folders{"..", "alpha", "Beta"};
  const auto with_folders = [&](Names files) {
    Names n = folders;
    n.insert(n.end(), files.begin(), files.end());
    return n;
  };
  set_filter(b, FileFilter::figures);
  CHECK(shown_names(b) == with_folders({"fig.svg", "zeta.png"}));
  set_filter(b, FileFilter::models);  // the lab manifest is a .json too, but not a model's config
  CHECK(shown_names(b) == with_folders({"config.json"}));
  set_filter(b, FileFilter::tables);
  CHECK(shown_names(b) == with_folders({"Apple.npy", "table.safetensors"}));
  set_filter(b, FileFilter::experiments);
  CHECK(shown_names(b) == with_folders({"run.json"}));
  CHECK(b.contents_read);
  set_filter(b, FileFilter::peviz);
  CHECK(shown_names(b) == with_folders({"Apple.npy", "config.json", "fig.svg", "run.json", "table.safetensors", "zeta.png"}));
  CHECK(std::string(entry_kind_label(b.entries[std::size_t(b.shown[6])].kind)) == "experiment");
  CHECK(selected_name(b) == "alpha");  // a folder: shown under every filter, so the selection stayed on it
}

TEST_CASE_METHOD(SampleListed, "entering a folder, going up to the folder left, and the root has no ..") {
  CHECK(activate(b).empty());  // "alpha" is selected: entering it opens nothing
  CHECK(b.folder == d / "alpha");
  CHECK(shown_names(b) == Names{"..", "deeper", "inner.pdf"});
  move_selection(b, 1);
  CHECK(selected_name(b) == "inner.pdf");
  move_selection(b, 5);  // clamped to the last row
  CHECK(selected_name(b) == "inner.pdf");
  CHECK(activate(b) == (d / "alpha" / "inner.pdf").string());
  CHECK(b.folder == d / "alpha");  // a file opens; the folder stays
  move_selection(b, -10);
  CHECK(selected_name(b) == "..");
  CHECK(activate(b).empty());
  CHECK(b.folder == d);
  CHECK(selected_name(b) == "alpha");  // the folder just left
  REQUIRE(go_up(b));
  CHECK(b.folder == d.parent_path());
  CHECK(selected_name(b) == d.filename().string());
  FileBrowser root;
  REQUIRE(list_folder(root, "/"));
  CHECK(root.entries.front().name != "..");
  CHECK_FALSE(go_up(root));
}

TEST_CASE_METHOD(SampleListed, "a missing folder, a file given as a folder and an unreadable folder say why and keep the listing") {
  const Names before = shown_names(b);
  const fs::path folder = b.folder;
  CHECK_FALSE(list_folder(b, d / "no-such-folder"));
  CHECK(b.problem == "Cannot list " + (folder / "no-such-folder").string() + ": No such file or directory");
  CHECK(b.folder == folder);
  CHECK(shown_names(b) == before);
  CHECK_FALSE(list_folder(b, d / "notes.txt"));
  CHECK(b.problem == "Cannot list " + (folder / "notes.txt").string() + ": Not a directory");
  REQUIRE(list_folder(b, d));
  CHECK(b.problem.empty());
  fs::create_directories(d / "locked");
  fs::permissions(d / "locked", fs::perms::none);
  std::error_code ec;
  fs::directory_iterator probe(d / "locked", ec);
  if (!ec) {
    WARN("SKIPPED: an unreadable folder: this user (root?) reads a chmod 000 folder anyway");
  } else {
    CHECK_FALSE(list_folder(b, d / "locked"));
    CHECK(b.problem == "Cannot list " + (folder / "locked").string() + ": Permission denied");
    CHECK(b.folder == folder);
  }
}

TEST_CASE_METHOD(SampleListed, "a typed path enters a folder, returns a file, says when missing; ~ is HOME") {
  b.path_text = "alpha/deeper/";  // relative to the folder shown
  CHECK(activate_path_text(b).empty());
  CHECK(b.folder == d / "alpha" / "deeper");
  CHECK(b.path_text == (d / "alpha" / "deeper").string());
  b.path_text = "../inner.pdf";
  CHECK(activate_path_text(b) == (d / "alpha" / "inner.pdf").string());
  b.path_text = (d / "nothing.png").string();
  CHECK(activate_path_text(b).empty());
  CHECK(b.problem == "No such file or folder: " + (d / "nothing.png").string());
  CHECK(b.folder == d / "alpha" / "deeper");
  if (const char* home = std::getenv("HOME"); home && fs::is_directory(home)) {
    b.path_text = "~";
    CHECK(activate_path_text(b).empty());
    CHECK(b.folder == fs::path(home).lexically_normal());
  }
}

TEST_CASE_METHOD(SampleListed, "the dialog starts in the newest recent file's folder, else the working directory, or where asked") {
  CHECK(start_folder({}) == fs::current_path());
  CHECK(start_folder({"/no/such/folder/a.png", (d / "alpha" / "inner.pdf").string()}) == d / "alpha");
  b.filter = FileFilter::figures;
  start_browsing(b, {(d / "zeta.png").string()});
  CHECK(b.folder == d);
  CHECK(shown_names(b) == Names{"..", "alpha", "Beta", "fig.svg", "zeta.png"});  // the filter is kept
  b.start_folder = d / "alpha";  // peviz --open FOLDER
  start_browsing(b, {(d / "zeta.png").string()});
  CHECK(b.folder == d / "alpha");
  CHECK(b.start_folder.empty());  // once
  b.start_folder = d / "gone";
  start_browsing(b, {(d / "zeta.png").string()});
  CHECK(b.folder == d);
  CHECK(b.problem == "Cannot list " + (d / "gone").string() + ": No such file or directory");
}

TEST_CASE("recent files: newest first, absolute, no repeats, at most eight") {
  std::vector<std::string> recent;
  remember_recent_file(recent, "/a/one.png");
  remember_recent_file(recent, "/a/two.png");
  remember_recent_file(recent, "/a/./one.png");  // the same file again moves to the front
  CHECK(recent == std::vector<std::string>{"/a/one.png", "/a/two.png"});
  remember_recent_file(recent, "rel.npy");
  CHECK(recent.front() == (fs::current_path() / "rel.npy").string());
  for (int i = 0; i < 10; ++i) remember_recent_file(recent, "/b/" + std::to_string(i) + ".json");
  REQUIRE(recent.size() == kMostRecentFiles);
  CHECK(recent.front() == "/b/9.json");
  CHECK(recent.back() == "/b/2.json");
}

TEST_CASE("a confined browser (the random-input run's) never lists or opens anything outside its folder") {
  const fs::path d = sample_folder();
  FileBrowser b;
  b.confined_to = d / "alpha";
  REQUIRE(list_folder(b, d / "alpha"));
  CHECK(list_folder(b, d / "alpha" / "deeper"));  // inside: fine
  CHECK(go_up(b));                                 // back to alpha itself
  CHECK(b.folder == d / "alpha");
  CHECK_FALSE(go_up(b));                           // its parent is outside
  CHECK(b.folder == d / "alpha");
  CHECK(b.problem == "Cannot list " + d.string() + ": this run stays inside " + (d / "alpha").string());
  b.path_text = "../zeta.png";                     // a file outside, typed
  CHECK(activate_path_text(b).empty());
  CHECK(b.problem.find("Cannot open " + (d / "zeta.png").string()) == 0);
  b.path_text = "/proc";
  CHECK(activate_path_text(b).empty());
  CHECK(b.folder == d / "alpha");
  // A link inside that points out is out.
  fs::create_directory_symlink(d / "Beta", d / "alpha" / "to-beta");
  CHECK_FALSE(list_folder(b, d / "alpha" / "to-beta"));
  b.path_text = "inner.pdf";
  CHECK(activate_path_text(b) == (d / "alpha" / "inner.pdf").string());
  fs::remove_all(d);
}
