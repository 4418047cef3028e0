// Where a value of a config's reading came from: read, the config class's default, or derived by a rule.
#pragma once
#include <string>
#include <vector>

namespace peviz {

// Where one value of the reading came from (the config inspector shows it beside the value): read from a field of
// the file, the config class's default for a field the file leaves out, or derived by a rule from other values.
enum class Origin { read, class_default, derived };
struct ValueOrigin {
  std::string value;     // the value's name as the inspector lists it: "head_dim", "rotary_dim", "rope_theta", ...
  Origin origin = Origin::read;
  std::string source;    // read / class_default: the field as the file spells it ("text_config.rope_theta");
                         // derived: the rule ("hidden_size / num_attention_heads")
};
// "read from text_config.rope_theta", "default of text_config.head_dim (the gemma3_text config class)",
// "derived: hidden_size / num_attention_heads".
std::string describe(const ValueOrigin& o);

// Records where a value came from.
inline void note(std::vector<ValueOrigin>& o, std::string value, Origin origin, std::string source) {
  o.push_back({std::move(value), origin, std::move(source)});
}

}  // namespace peviz
