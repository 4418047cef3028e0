// Config inspector: every layer group of the loaded model's config with its RoPE settings and their origins.
#include "app/ui/views/config_inspector_view.hpp"

#include <cstdio>
#include <string>

#include <imgui.h>
#include <imgui_internal.h>  // the table window's ScrollbarX

#include "app/ui/views/rope_model_line.hpp"
#include "app/ui/views/views.hpp"
#include "core/models/framework_notes.hpp"

namespace peviz::app {

namespace {

struct InspectorColumn {
  const char* title;
  const char* meaning;
  const char* origin_of;  // the ValueOrigin::value its hover names; "" for none
};
constexpr InspectorColumn kInspectorColumns[] = {
    {"layers", "The layers of this group (0-based), as the config's layer map gives them", "layer_types"},
    {"layer type", "transformers' layer_types name of these layers", "layer_types"},
    {"positions", "RoPE rotates q and k; NoPE layers attend without positions", "no_rope_layers"},
    {"rotary", "Channels that rotate, of head_dim; the rest pass through", "rotary_dim"},
    {"layout", "halves: channel j turns with j + R/2 (rotate_half); interleaved: 2j with 2j + 1", "layout"},
    {"base", "rope_theta of these layers", "rope_theta"},
    {"scaling", "rope_type and its factor", "rope_type"},
    {"attn factor", "attention_factor: multiplies cos and sin (so q.k by its square)", "attention_factor"},
    {"span", "full, or the sliding window / chunk these layers attend over", ""},
    {"query scale", "Llama 4's temperature tuning on these layers' queries", ""},
};

const ValueOrigin* inspector_origin(const std::vector<ValueOrigin>& a, const std::vector<ValueOrigin>& b, std::string_view v) {
  for (const auto* list : {&a, &b})
    for (const ValueOrigin& o : *list)
      if (o.value == v) return &o;
  return nullptr;
}

// The cell's text, and its origin on hover.
void inspector_cell(const std::string& text, const ValueOrigin* origin) {
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(text.c_str());
  if (origin) hint(describe(*origin).c_str());
}

std::string inspector_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.7g", v);
  return text;
}

// The span and query scale of the group's layers (their first layer's; a group shares both).
const ModelLayer* first_layer_of(const ModelConfig& m, const RopeVectorGroup& g) {
  return g.layers.empty() ? nullptr : &m.layers[std::size_t(g.layers.front())];
}

// The group's layers as ranges, cut to a few with the whole list on hover (Llama 4's 36 RoPE layers run in 12 ranges).
void layers_cell(const RopeVectorGroup& g) {
  ImGui::TableNextColumn();
  if (g.layers.empty()) return ImGui::TextUnformatted("all");
  const std::string ranges = layer_ranges(g.layers);
  const std::string count = " (" + std::to_string(g.layers.size()) + ")";
  constexpr std::size_t kShown = 9;
  const std::size_t cut = ranges.size() > kShown ? ranges.rfind(", ", kShown) : std::string::npos;
  const std::string shown = (cut == std::string::npos ? ranges : ranges.substr(0, cut) + ", ...") + count;
  ImGui::TextUnformatted(shown.c_str());
  hint(("layers " + ranges).c_str());
}

void inspector_row(const ModelConfig& m, const RopeVectorGroup& g) {
  const auto origin = [&](std::string_view v) { return inspector_origin(g.origins, m.origins, v); };
  const ModelLayer* layer = first_layer_of(m, g);
  ImGui::TableNextRow();
  layers_cell(g);
  inspector_cell(g.layer_type, origin("layer_types"));
  inspector_cell(!g.attention ? "none (linear attention)" : g.rope ? "RoPE" : "NoPE", origin("no_rope_layers"));
  if (!g.rope) {
    for (int i = 0; i < 5; ++i) inspector_cell("-", nullptr);
  } else {
    inspector_cell(std::to_string(g.rotary_dim) + " of " + std::to_string(g.head_dim), origin("rotary_dim"));
    inspector_cell(std::string(to_string(g.pairing)), origin("layout"));
    inspector_cell(inspector_number(g.base), origin("rope_theta"));
    const ValueOrigin* factor = origin("factor");
    inspector_cell(g.rope_type + (g.factor != 1 ? " x" + inspector_number(g.factor) : ""),
                   factor ? factor : origin("rope_type"));
    inspector_cell(inspector_number(g.attention_factor), origin("attention_factor"));
  }
  const char* window_key = layer && layer->attention == LayerSpan::chunked ? "attention_chunk_size" : "sliding_window";
  inspector_cell(layer ? std::string(to_string(layer->attention)) + (layer->window ? " " + std::to_string(layer->window) : "") : "-",
       origin(window_key));
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(layer && layer->query_scaled ? "tuned" : "-");
  if (layer && layer->query_scaled) hint(("q *= " + query_scale_formula(m, *layer) + " (Llama4TextAttention)").c_str());
}

void inspector_table(const ModelConfig& m, const RopeTestVectors& v) {
  constexpr int n = int(std::size(kInspectorColumns));
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                ImGuiTableFlags_ScrollX;
  // The rows, and the horizontal scrollbar's band only when the last frame showed one (columns wider than the
  // pane): the window draws a few frames after any change, so the height settles before it idles.
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID scrolls = ImGui::GetID("##inspected scrolls");
  const float height = (ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y) * float(v.groups.size() + 1) +
                       (storage->GetBool(scrolls, true) ? ImGui::GetStyle().ScrollbarSize : 0.0f) + 4.0f;
  if (!ImGui::BeginTable("##inspected", n, flags, ImVec2(0, height))) return;
  for (const InspectorColumn& c : kInspectorColumns) ImGui::TableSetupColumn(c.title);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int i = 0; i < n; ++i) {
    ImGui::TableSetColumnIndex(i);
    ImGui::TableHeader(kInspectorColumns[i].title);
    hint(kInspectorColumns[i].meaning);
  }
  for (const RopeVectorGroup& g : v.groups) inspector_row(m, g);
  storage->SetBool(scrolls, ImGui::GetCurrentWindow()->ScrollbarX);  // the table's own (scrolling) window
  ImGui::EndTable();
}

// Every value's origin, group by group, then the model-wide ones.
void inspector_origins(const ModelConfig& m) {
  if (!ImGui::CollapsingHeader("Where each value came from", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const float width = ImGui::GetContentRegionAvail().x;
  for (const LayerTypeRope& l : m.layer_types) {
    if (m.layer_types.size() == 1) ImGui::TextDisabled("RoPE settings:");
    else ImGui::TextDisabled("RoPE settings of the %s layers:", l.layer_type.c_str());
    for (const ValueOrigin& o : l.origins) wrapped_text("  " + o.value + " = " + describe(o), width);
  }
  ImGui::TextDisabled("the model:");
  for (const ValueOrigin& o : m.origins) wrapped_text("  " + o.value + " = " + describe(o), width);
}

void inspector_notes(const ModelConfig& m) {
  const float width = ImGui::GetContentRegionAvail().x;
  if (!m.unmodelled.empty() && ImGui::CollapsingHeader("Fields peviz does not model", ImGuiTreeNodeFlags_DefaultOpen))
    for (const std::string& u : m.unmodelled) wrapped_text("  " + u, width);
  const std::vector<const FrameworkNote*> differences = framework_notes(m);
  if (differences.empty() || !ImGui::CollapsingHeader("Read differently elsewhere", ImGuiTreeNodeFlags_DefaultOpen)) return;
  for (const FrameworkNote* n : differences) {
    ImGui::TextUnformatted(n->topic.data());
    wrapped_text("  " + std::string(n->text), width);
    ImGui::TextDisabled("  source:");
    ImGui::SameLine();
    wrapped_text(n->source, ImGui::GetContentRegionAvail().x);
  }
}

// The shipped models to inspect; File > Open adds any other.
void model_combo(AppState& s) {
  const LoadedRopeModel& loaded = s.pages.rope_model;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  if (ImGui::BeginCombo("##inspected_model", loaded.model->name.c_str())) {
    for (const RopeModelPreset& p : rope_model_presets())
      if (ImGui::Selectable(p.name.c_str(), p.model == loaded.model)) load_rope_model(s.pages, p.model, "");
    ImGui::EndCombo();
  }
  hint("A shipped model's config.json; File > Open (or drop) a Hugging Face config.json to inspect any other.");
}

}  // namespace

void draw_config_inspector(AppState& s) {
  const LoadedRopeModel& loaded = s.pages.rope_model;
  const ModelConfig& m = *loaded.model;
  const RopeTestVectors& v = s.pages.context_extension.inspected;
  model_combo(s);
  ImGui::SameLine();
  ImGui::Text("model_type %s", m.model_type.empty() ? "none" : m.model_type.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled(loaded.path.empty() ? "shipped with peviz (assets/models)" : "%s", loaded.path.c_str());
  hint("Hover a cell for where its value came from: read from a field, the config class's default, or derived by a "
       "rule. File > Open (or drop) any config.json to inspect it.");
  if (v.groups.empty()) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  inspector_table(m, v);
  const std::string command = "peviz export rope-test-vectors --config " +
                              (loaded.path.empty() ? std::string("CONFIG.json") : loaded.path) + " --format json";
  ImGui::TextDisabled("Test vectors (cos, sin and scores per group, docs/model-config.md):");
  wrapped_text(command, ImGui::GetContentRegionAvail().x);
  ImGui::BeginChild("##inspector_notes", ImVec2(0, 0), false);
  inspector_origins(m);
  inspector_notes(m);
  ImGui::EndChild();
}

}  // namespace peviz::app
