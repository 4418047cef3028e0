// File > Open's file browser without ImGui: the folder shown, its entries sorted and filtered, the selection, and
// the recent files. The dialog (app/ui/views/open_dialog.cpp) draws a FileBrowser and calls these on input.
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace peviz::app {

// Which files the list shows; folders are always shown.
enum class FileFilter { peviz, figures, models, tables, experiments, all };
struct FileFilterInfo {
  FileFilter filter;
  const char* label;  // the dialog's filter choice
};
inline constexpr FileFilterInfo kFileFilters[] = {
    {FileFilter::peviz, "all peviz files"},
    {FileFilter::figures, "figures (.png .svg .pdf)"},
    {FileFilter::models, "models (config.json)"},
    {FileFilter::tables, "tables (.npy .safetensors)"},
    {FileFilter::experiments, "experiments (lab .json .safetensors)"},
    {FileFilter::all, "all files"}};

// What an entry is. A file's kind comes from its name (open_file's order); a .json or .safetensors is a model or
// a table until its first bytes say it is a lab experiment (train::is_lab_file, read when a filter needs it).
enum class EntryKind { parent, folder, figure, model, table, experiment, other };
// "figure", "model", "table", "experiment", "" for folders and other files: the list's second column.
const char* entry_kind_label(EntryKind k);

struct FileEntry {
  std::string name;  // the file or folder name; ".." for the parent
  EntryKind kind = EntryKind::other;
};

inline constexpr std::size_t kMostRecentFiles = 8;

struct FileBrowser {
  std::filesystem::path folder;     // absolute and lexically normal; empty before the first listing
  std::vector<FileEntry> entries;   // "..", the folders, then the files, each group by name (before the filter)
  std::vector<int> shown;           // indexes into `entries` that pass the filter, in order
  int selected = -1;                // index into `shown`; -1: none
  FileFilter filter = FileFilter::peviz;
  bool contents_read = false;       // the .json / .safetensors entries' first bytes read (once per listing)
  std::string path_text;            // the dialog's editable path field
  std::string problem;              // one line: why the last folder or path could not be used; "" when fine
  bool follow_selection = false;    // the selection moved by a key: the list scrolls to it (the dialog clears it)
  bool path_takes_keys = false;     // typing began over the list: the path field is taking the keys
  std::filesystem::path start_folder;  // where the next opening starts instead (peviz --open FOLDER); one-shot
  // A folder the browser never leaves, absolute (--monkey: its working directory, so that random clicks cannot
  // open /proc or /dev); empty: anywhere.
  std::filesystem::path confined_to;
};

// Lists `folder` (relative: against the working directory) into `b`: "..", then folders, then files, sorted by
// name, case aside; names starting with '.' only under FileFilter::all. Selects the first entry after "..", or
// `select_name` when listed. A missing or unreadable folder leaves the listing as it was, says why in `problem`
// and returns false.
bool list_folder(FileBrowser& b, const std::filesystem::path& folder, const std::string& select_name = "");
// The folder the dialog opens in: that of the newest recent file whose folder exists, else the working directory.
std::filesystem::path start_folder(const std::vector<std::string>& recent_files);
// The dialog opens: lists b.start_folder (then clears it) or start_folder(recent_files), the working
// directory when that fails; the filter is kept.
void start_browsing(FileBrowser& b, const std::vector<std::string>& recent_files);

// Shows only the entries `f` passes (reading .json / .safetensors heads once when it must tell experiments from
// models and tables); the selection stays on its entry when still shown, else goes to the first.
void set_filter(FileBrowser& b, FileFilter f);
// Moves the selection by `delta` rows, within the list.
void move_selection(FileBrowser& b, int delta);
// Enters the parent folder, the one left selected. False at the root or when it cannot be listed.
bool go_up(FileBrowser& b);
// Acts on shown row `row` (the selection when -1): enters a folder or goes up, and returns "" then; for a file
// returns its full path, which the caller opens.
std::string activate(FileBrowser& b, int row = -1);
// Acts on the typed path (relative: against the folder; a leading ~ is $HOME): enters a folder, returns a file's
// path, or sets `problem` for a missing path and returns "".
std::string activate_path_text(FileBrowser& b);

// Puts `path` (made absolute) first in `recent`, removing an earlier copy, keeping at most kMostRecentFiles.
void remember_recent_file(std::vector<std::string>& recent, const std::string& path);

}  // namespace peviz::app
