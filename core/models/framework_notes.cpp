// The table of framework reading differences (core/models/framework_notes.hpp) and when each applies.
#include "core/models/framework_notes.hpp"

#include <algorithm>

namespace peviz {

namespace {

enum class When { rope_parameters, yarn, yarn_mscale, dynamic, longrope, llama3, gemma_local, nope_layers, query_scale, partial, interleaved };

struct Row {
  When when;
  FrameworkNote note;
};

const Row kRows[] = {
    {When::rope_parameters,
     {"rope_parameters (transformers v5)",
      "transformers v5 keeps rope_theta and the scaling inside rope_parameters (rope_scaling and a top-level "
      "rope_theta before it); readers that look only for the older keys fall back to their defaults on such a "
      "config. vLLM, SGLang and DeepSpeed each fixed this in 2025-2026; llama.cpp's converter reads both.",
      "vllm pull request #28542; sglang pull request #14745; deepspeed pull requests #8341 and #8345; llama.cpp "
      "convert_hf_to_gguf.py (TextModel.__init__)"}},
    {When::yarn,
     {"YaRN attention factor",
      "transformers multiplies cos and sin by attention_factor (so q.k by its square): the config's value when given, "
      "else 0.1 ln(factor) + 1. Some vLLM versions ignored an explicit attention_factor, mscale or mscale_all_dim "
      "for rope_type yarn and used 0.1 ln(factor) + 1; llama.cpp cancels ggml's built-in factor and applies the "
      "config's.",
      "vllm-project/vllm pull requests #46280, #48351, #48623; ggml-org/llama.cpp src/llama-context.cpp "
      "(llama_context constructor), pull requests #17945 and #18006"}},
    {When::yarn,
     {"YaRN factor with original_max_position_embeddings",
      "Some transformers versions replaced factor by max_position_embeddings / original_max_position_embeddings "
      "when the rope dict names the original length, which is 1 for Qwen2.5's suggested YaRN block (32768 / 32768) "
      "and turns YaRN off; peviz reads factor as given, as the fixed versions do. Both transformers and vLLM apply "
      "YaRN statically (every length), as Qwen's model card says.",
      "huggingface/transformers issue #38224 (fixed by #40320, per its maintainers; the fix itself not read)"}},
    {When::yarn_mscale,
     {"DeepSeek mscale on the softmax scale",
      "Besides the cos/sin factor get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim), DeepSeek's "
      "attention multiplies its softmax scale by get_mscale(factor, mscale_all_dim)^2; transformers and vLLM do "
      "(SGLang likewise, seen in an excerpt only), and llama.cpp's deepseek2 graph does the same through its "
      "kq_scale. The attention factor shown here is the cos/sin one only.",
      "transformers models/deepseek_v3/modeling_deepseek_v3.py (DeepseekV3Attention.__init__); vllm "
      "model_executor/models/deepseek_v2.py (DeepseekV2MLAAttention); llama.cpp src/models/deepseek2.cpp"}},
    {When::dynamic,
     {"Dynamic NTK with a KV cache",
      "transformers recomputes the base from the current length (max position + 1) at each forward pass, so keys "
      "cached earlier keep an older rotation; vLLM builds one static cache for max_position_embeddings x factor. "
      "llama.cpp: no dynamic NTK rope type found (unconfirmed).",
      "transformers modeling_rope_utils.py (dynamic_rope_update, _compute_dynamic_ntk_parameters); vllm issues "
      "#3488 and #5093"}},
    {When::longrope,
     {"LongRoPE short or long factors",
      "transformers picks long_factor when the sequence (max position + 1) passes "
      "original_max_position_embeddings, per forward pass; vLLM decides once from max_model_len and llama.cpp from "
      "the allocated context, so short prompts there can run with the long factors.",
      "vllm Phi3LongRoPEScaledRotaryEmbedding; llama.cpp llama_model::get_rope_factors, issue #24823"}},
    {When::llama3,
     {"Llama 3 scaling baked at conversion",
      "llama.cpp's converter writes the llama3 scaling into a rope_freqs tensor of the GGUF; editing the config "
      "afterwards changes nothing there, and a GGUF without that tensor runs unscaled. transformers computes it "
      "from the config at load.",
      "llama.cpp convert_hf_to_gguf.py (pull request #8676); ik_llama.cpp pull request #402"}},
    {When::gemma_local,
     {"Gemma 3 local base",
      "transformers reads rope_local_base_freq for the sliding layers (no scaling there); llama.cpp sets the "
      "sliding layers' base to 10000 without reading it (older builds also scaled them: issue #14367). vLLM "
      "matches transformers.",
      "transformers Gemma3TextModel.__init__ (rotary_emb_local); vllm model_executor/models/gemma3.py; llama.cpp "
      "issue #14367"}},
    {When::nope_layers,
     {"NoPE layer schedule",
      "transformers and vLLM read no_rope_layers; llama.cpp makes every fourth layer NoPE for Llama 4 and SmolLM3 "
      "without reading the list, so a config with another schedule runs differently there.",
      "llama.cpp src/models/smollm3.cpp (n_no_rope_layer_step); vllm model_executor/models/llama4.py"}},
    {When::query_scale,
     {"Llama 4 temperature tuning",
      "transformers and vLLM read floor_scale and attn_scale from the config; llama.cpp uses 8192 and 0.1 "
      "whatever the config says.",
      "vllm model_executor/models/llama4.py (Llama4Attention); llama.cpp LLAMA4 hyper-parameters"}},
    {When::partial,
     {"Partial rotary",
      "transformers takes the config-level partial_rotary_factor over one inside rope_parameters; vLLM's get_rope "
      "reads it from rope_parameters, and some model ports took the wrong factor.",
      "vllm pull request #43770; transformers pull request #48682"}},
    {When::interleaved,
     {"Pair layout",
      "Interleaved pairs (2j, 2j + 1) and halves (j, j + R/2) give the same attention only with the matching q/k "
      "weight permutation: llama.cpp stores Llama-family weights permuted and rotates adjacent pairs, vLLM runs "
      "DeepSeek MLA GPT-J style; weights are not interchangeable across layouts.",
      "llama.cpp convert_hf_to_gguf.py (LlamaModel.permute), llama_model_rope_type; vllm issue #26995"}},
};

bool any_layer(const ModelConfig& c, bool (*test)(const LayerTypeRope&)) {
  return std::any_of(c.layer_types.begin(), c.layer_types.end(), test);
}

bool applies(When w, const ModelConfig& c) {
  switch (w) {
    case When::rope_parameters:
      return any_layer(c, [](const LayerTypeRope& l) {
        return std::any_of(l.origins.begin(), l.origins.end(), [](const ValueOrigin& o) {
          return o.origin == Origin::read && o.source.find("rope_parameters") != std::string::npos;
        });
      });
    case When::yarn: return any_layer(c, [](const LayerTypeRope& l) { return l.scaling.kind == RopeScaling::yarn; });
    case When::yarn_mscale:
      return any_layer(c, [](const LayerTypeRope& l) { return l.scaling.mscale_all_dim.value_or(0) != 0; });
    case When::dynamic: return any_layer(c, [](const LayerTypeRope& l) { return l.scaling.kind == RopeScaling::dynamic; });
    case When::longrope: return any_layer(c, [](const LayerTypeRope& l) { return l.scaling.kind == RopeScaling::longrope; });
    case When::llama3: return any_layer(c, [](const LayerTypeRope& l) { return l.scaling.kind == RopeScaling::llama3; });
    case When::gemma_local: return c.model_type == "gemma3_text" && c.layer_types.size() > 1;
    case When::nope_layers:
      return std::any_of(c.layers.begin(), c.layers.end(), [](const ModelLayer& l) { return l.positions == LayerPositions::nope; });
    case When::query_scale:
      return std::any_of(c.layers.begin(), c.layers.end(), [](const ModelLayer& l) { return l.query_scaled; });
    case When::partial: return any_layer(c, [](const LayerTypeRope& l) { return l.rope.rotary_dim != 0; });
    case When::interleaved:
      return any_layer(c, [](const LayerTypeRope& l) { return l.rope.pairing == RopePairing::interleaved; });
  }
  return false;
}

}  // namespace

std::vector<const FrameworkNote*> framework_notes(const ModelConfig& c) {
  std::vector<const FrameworkNote*> out;
  if (c.scheme != PositionScheme::rope) return out;
  for (const Row& r : kRows)
    if (applies(r.when, c)) out.push_back(&r.note);
  return out;
}

}  // namespace peviz
