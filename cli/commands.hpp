// The headless subcommands of the peviz executable; none of them touches GLFW or GL.
#pragma once
#include <functional>

#include <CLI/CLI.hpp>

namespace peviz::cli {

// `peviz export <what>`: the absolute encodings and analyses (export_absolute.cpp) and the
// relative family (export_relative.cpp) register their subcommands under `export_cmd`.
void register_absolute_exports(CLI::App& export_cmd);
void register_relative_exports(CLI::App& export_cmd);
// `peviz export binary-analogy` (export_binary_analogy.cpp), registered by register_absolute_exports.
void register_binary_analogy(CLI::App& export_cmd);
// `peviz export rope-bounds` (export_rope_bounds.cpp), registered by register_relative_exports.
void register_rope_bounds(CLI::App& export_cmd);
// `peviz export layer-map` (export_layer_map.cpp), registered by register_relative_exports.
void register_layer_map(CLI::App& export_cmd);
// `peviz export rope-test-vectors` (export_rope_vectors.cpp), registered by register_relative_exports.
void register_rope_test_vectors(CLI::App& export_cmd);
// `peviz export attention-scale` (export_attention_scale.cpp), registered by register_relative_exports.
void register_attention_scale(CLI::App& export_cmd);
// `peviz export reproductions` (export_reproductions.cpp), registered by register_relative_exports.
void register_reproductions(CLI::App& export_cmd);
// `peviz export models-compared` (export_model_comparison.cpp), registered by register_relative_exports.
void register_model_comparison(CLI::App& export_cmd);
// `peviz export mrope-positions` and `mrope-axis-score` (export_mrope.cpp), registered by register_relative_exports.
void register_mrope_exports(CLI::App& export_cmd);

// `peviz bench [--json]`.
void register_bench(CLI::App& app);

// `peviz train ...` (train_command.cpp): the length-generalisation lab on the command line.
void register_train(CLI::App& app);

// Thrown after a usage message was already printed; run_guarded maps it to exit code 2.
struct UsageExit {};
// Thrown after a failure that is not the user's input (a shader, a font) was already printed: exit code 1.
struct FailureExit {};

// Runs `fn`, turning ParamError into "peviz: --<param>: <rule>" on stderr and exit code 2, and any
// other std::exception into "peviz: <what>" and exit code 1, and Ctrl+C (SIGINT) or SIGTERM during a
// write into "peviz: interrupted by SIGINT; no output file was written" and 128 + the signal. Returns the exit code.
int run_guarded(const std::function<void()>& fn);

}  // namespace peviz::cli
