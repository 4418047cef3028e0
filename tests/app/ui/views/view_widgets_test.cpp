// wrap_lines: text broken only at spaces outside parentheses and away from "=", every line within its width.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "app/model/lessons.hpp"
#include "app/ui/views/views.hpp"
#include "tests/app/ui/imgui_headless.hpp"
#include "tests/build_paths.hpp"

using namespace peviz::app;

namespace {

// Every line of `text` wrapped at `width`: within it (or one unbreakable word), none cut inside parentheses or
// beside "=", and the lines joined by spaces give the text back.
void check_wrapped(const std::string& text, float width) {
  INFO(text << " at " << width << " px");
  const std::vector<std::string_view> lines = wrap_lines(text, width);
  std::string joined;
  for (const std::string_view line : lines) {
    INFO("line: " << line);
    const std::string l(line);
    if (l.find(' ') != std::string::npos) {  // several words: they fit, or the first break came too late
      bool formula = false;  // "cos(r theta_i)": a name's parentheses, which do not break
      for (std::size_t i = 1; i < l.size(); ++i)
        formula = formula || (l[i] == '(' && std::isalnum(static_cast<unsigned char>(l[i - 1])));
      CHECK((ImGui::CalcTextSize(l.c_str()).x <= width || formula || l.find(" =") != std::string::npos ||
             l.find("= ") != std::string::npos));
    }
    CHECK((l.empty() || l.back() != '='));
    CHECK((l.empty() || l.front() != '='));
    joined += (joined.empty() ? "" : " ") + l;
  }
  CHECK(joined == text);
}

// ImGui's font and its size between NewFrame and EndFrame, for text measures.
struct MeasuringFrame {
  HeadlessImGui ui;
  MeasuringFrame() { ImGui::NewFrame(); }
  ~MeasuringFrame() { ImGui::EndFrame(); }
};

}  // namespace

TEST_CASE("wrap_lines keeps numbers, equations and parentheses whole") {
  MeasuringFrame frame;
  const std::string text = "the error is 0.000133 radians at n = 25, where 2 x the sum of cos(r theta_i) shrinks.";
  for (float em : {6.0f, 9.0f, 14.0f, 30.0f}) {
    const float width = em * ImGui::GetFontSize();
    check_wrapped(text, width);
    for (const std::string_view line : wrap_lines(text, width)) {
      CHECK((line.find("000133") == std::string_view::npos || line.find("0.000133") != std::string_view::npos));
      CHECK((line.find("cos(r") == std::string_view::npos || line.find("cos(r theta_i)") != std::string_view::npos));
      CHECK((line.find("n =") == std::string_view::npos || line.find("n = 25") != std::string_view::npos));
    }
  }
  CHECK(wrap_lines("one\ntwo words", 1000.0f) == std::vector<std::string_view>{"one", "two words"});
  CHECK(wrap_lines("", 100.0f) == std::vector<std::string_view>{""});
}

TEST_CASE("every lesson step's text wraps whole at a slide's column widths") {
  MeasuringFrame frame;
  for (const char* name : {"positional-encodings", "longer-than-training"}) {
    const Lesson lesson = load_lesson_file(std::string(peviz::test::source_dir) + "/assets/lessons/" + name + ".json");
    for (const LessonStep& step : lesson.steps)
      if (step.text.find('\n') == std::string::npos)
        for (float em : {16.0f, 24.0f, 40.0f}) check_wrapped(step.text, em * ImGui::GetFontSize());
  }
}
