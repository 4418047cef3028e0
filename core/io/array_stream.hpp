// The one formatter behind every CSV, NPY and JSON output: an array produced a block of rows at a time.
//
// In-memory arrays (NdArray, through rows_of) and streamed exports (row sources that compute each block
// on demand) go through the same write_array, so their bytes cannot drift apart. Memory use is one block
// (about StreamOptions::block_bytes) plus whatever the source keeps, whatever the size of the array.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/io/nd_array.hpp"

namespace peviz {

// An n-D array seen as rows of its last axis: rows() = product of the leading axes, cols() = last axis.
struct RowSource {
  std::vector<std::size_t> shape;  // e.g. {L, d} or {heads, L, L}
  DType dtype = DType::f32;
  std::size_t row_align = 1;       // blocks starting at a multiple of this many rows are cheapest
  // Fills rows [first, first + count) into out: count * cols() floats (f32) or int32_t (i32).
  // Must give the same values whichever blocks the rows are asked in.
  std::function<void(std::size_t first, std::size_t count, void* out)> fill;

  std::size_t rows() const;
  std::size_t cols() const;
  std::size_t size() const { return rows() * cols(); }
};

// All rows of a source in memory (the in-memory results are built this way, so they equal the stream).
NdArray materialise(const RowSource& src);

// A view of an in-memory array (which must outlive the source).
RowSource rows_of(const NdArray& a);

struct StreamProgress {
  std::uint64_t rows_done = 0, rows_total = 0;
  std::uint64_t bytes_written = 0;
};

struct StreamOptions {
  int threads = 1;  // formatting text rows in parallel; blocks hold whole row_align units for this many threads
  std::size_t block_bytes = 4u << 20;       // rows per block: about this many bytes of values
  std::function<void(const StreamProgress&)> progress;  // after each block (may be empty)
};

// Writes the array in `format` (the layouts are documented at write_csv, write_npy, write_json). After
// each block: throws ParamError("out", ...) when the stream failed, Interrupted after SIGINT/SIGTERM
// under an InterruptGuard (core/io/atomic_file.hpp). `params` and `extra` go into JSON; CSV's header reads extra's
// "columns" or "column_axis" (write_csv).
void write_array(std::ostream& os, Format format, const RowSource& src, const nlohmann::json& params = {},
                 const nlohmann::json& extra = nlohmann::json::object(), const StreamOptions& options = {});

// An in-memory array through write_array, in each format:
// CSV: a header line of column names, then one row of the last axis per line (leading axes stacked: row h*L+i),
// comma separated, shortest digits that round-trip float32; NaN is an empty cell. The names: extra's "columns" when
// it holds one string per column, else <extra's "column_axis", default "column">_<i> ("dim_0,dim_1,..."); an empty
// array is an empty file.
void write_csv(std::ostream& os, const NdArray& a, const nlohmann::json& extra = nlohmann::json::object());
// NPY format 1.0, little-endian '<f4' or '<i4', C order.
void write_npy(std::ostream& os, const NdArray& a);
// {"shape": [...], "data": [row-major flat, NaN as null], "params": params, ...extra}
void write_json(std::ostream& os, const NdArray& a, const nlohmann::json& params,
                const nlohmann::json& extra = nlohmann::json::object());

// Bytes write_array will produce: exact for NPY; for CSV and JSON an upper bound (every value at its
// longest text), `exact` says which.
struct OutputSize {
  std::uint64_t bytes = 0;
  bool exact = true;
};
OutputSize output_size(Format format, const RowSource& src, const nlohmann::json& params = {},
                       const nlohmann::json& extra = nlohmann::json::object());

}  // namespace peviz
