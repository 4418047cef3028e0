// Animation sweeps: values per frame (linear, geometric, rounded), the state keys each parameter
// sets, and what is refused.
#include <catch2/catch.hpp>

#include <cmath>

#include "app/model/animation.hpp"
#include "app/model/state_json.hpp"
#include "core/base/errors.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("position sweeps linearly, ending exactly at --to") {
  const AnimationSpec a{AnimatedParam::position, 0.0, 59.0, 60, 30};
  for (int i = 0; i < 60; ++i) CHECK(animation_value(a, i) == Approx(double(i)));
  CHECK(animation_value(AnimationSpec{AnimatedParam::position, 3.0, 9.0, 1, 30}, 0) == 3.0);
}

TEST_CASE("base sweeps geometrically: every decade gets the same number of frames") {
  const AnimationSpec a{AnimatedParam::base, 100.0, 1e6, 41, 30};
  CHECK(animation_value(a, 0) == Approx(100.0));
  CHECK(animation_value(a, 10) == Approx(1000.0));
  CHECK(animation_value(a, 20) == Approx(1e4));
  CHECK(animation_value(a, 40) == 1e6);
}

TEST_CASE("d-model rounds to even numbers and seq-len to integers") {
  const AnimationSpec d{AnimatedParam::d_model, 16.0, 512.0, 30, 30};
  for (int i = 0; i < 30; ++i) {
    const double v = animation_value(d, i);
    CHECK(std::fmod(v, 2.0) == 0.0);
    CHECK(v >= 16.0);
    CHECK(v <= 512.0);
  }
  const AnimationSpec l{AnimatedParam::seq_len, 10.0, 1000.0, 7, 30};
  for (int i = 0; i < 7; ++i) CHECK(animation_value(l, i) == std::round(animation_value(l, i)));
}

TEST_CASE("each parameter's patch sets it where the pages read it") {
  AppState s;
  apply_state_json(animation_patch(AnimatedParam::base, 500.0), s);
  CHECK(s.params.base == 500.0);
  CHECK(s.pages.rope_clocks.rope.base == 500.0);
  apply_state_json(animation_patch(AnimatedParam::position, 17.5), s);
  CHECK(s.pages.rope_clocks.position == 17.5);
  apply_state_json(animation_patch(AnimatedParam::d_model, 64.0), s);
  CHECK(s.params.d_model == 64);
  apply_state_json(animation_patch(AnimatedParam::seq_len, 300.0), s);
  CHECK(s.params.seq_len == 300);
  CHECK(s.pages.alibi.seq_len == 300);
  apply_state_json(animation_patch(AnimatedParam::factor, 4.0), s);
  CHECK(s.pages.context_extension.params.factor == 4.0);
  CHECK_THROWS_AS(apply_state_json(animation_patch(AnimatedParam::d_model, 0.0), s), ParamError);
}

TEST_CASE("animation specs, names and formats are checked") {
  CHECK(parse_animated_param("seq-len") == AnimatedParam::seq_len);
  CHECK(parse_animated_param("lesson") == AnimatedParam::lesson);
  CHECK_FALSE(parse_animated_param("spin"));
  CHECK(animated_param_names() == "position, base, d-model, seq-len, factor, lesson");
  CHECK(animation_format_of_path("/a/b.GIF") == AnimationFormat::gif);
  CHECK(animation_format_of_path("x.mp4") == AnimationFormat::mp4);
  CHECK_FALSE(animation_format_of_path("x.mp4/y"));
  CHECK_FALSE(animation_format_of_path("x.png"));
  // The ends in the swept parameter's range (the state each frame applies), named as --from / --to.
  CHECK_THROWS_WITH(validate(AnimationSpec{AnimatedParam::base, 0.0, 10.0, 10, 30}, AnimationFormat::mp4),
                    "from: must be a finite number in " + window_range_text(limits::base) + ", got 0");
  CHECK_THROWS_WITH(validate(AnimationSpec{AnimatedParam::position, -5.0, 10.0, 10, 60}, AnimationFormat::mp4),
                    "from: must be a finite number in " + window_range_text(limits::rope_position) + ", got -5");
  CHECK_THROWS_WITH(validate(AnimationSpec{AnimatedParam::d_model, 16.0, 1e6, 10, 60}, AnimationFormat::mp4),
                    Catch::StartsWith("to: must be a finite number in "));
  CHECK_THROWS_AS(validate(AnimationSpec{AnimatedParam::position, NAN, 10.0, 10, 30}, AnimationFormat::mp4), ParamError);
  CHECK_THROWS_AS(validate(AnimationSpec{AnimatedParam::position, 0.0, 10.0, 0, 30}, AnimationFormat::mp4), ParamError);
  CHECK_THROWS_AS(validate(AnimationSpec{AnimatedParam::position, 0.0, 10.0, 10, 121}, AnimationFormat::mp4), ParamError);
  CHECK_THROWS_WITH(validate(AnimationSpec{AnimatedParam::position, 0.0, 10.0, 10, 60}, AnimationFormat::gif), Catch::Contains("50"));
  CHECK_NOTHROW(validate(AnimationSpec{AnimatedParam::position, 64.0, 0.0, 10, 60}, AnimationFormat::mp4));  // backwards
  CHECK_NOTHROW(validate(AnimationSpec{AnimatedParam::lesson, 1.0, 0.0, 10, 20}, AnimationFormat::gif));  // lesson_span's
}

TEST_CASE("a lesson animation holds each step, then cross-fades into the next in the last quarter") {
  // 3 steps over 40 frames: 13.3 frames each, fading over the last 3.3 of the first two.
  for (int f = 0; f < 40; ++f) {
    const LessonFrame l = lesson_frame(f, 40, 3);
    const double position = f / (40.0 / 3.0);
    CHECK(l.step == std::min(int(position), 2));
    CHECK(l.mix >= 0.0);
    CHECK(l.mix < 1.0);
    if (l.mix > 0) CHECK(l.next == l.step + 1);
    else CHECK(l.next == l.step);
  }
  CHECK(lesson_frame(0, 40, 3).mix == 0.0);
  CHECK(lesson_frame(9, 40, 3).mix == 0.0);                     // 0.675 of step 0: still holding
  CHECK(lesson_frame(12, 40, 3).mix == Approx((0.9 - 0.75) / 0.25));  // 0.9 of step 0
  CHECK(lesson_frame(39, 40, 3).step == 2);                     // the last step holds to the end
  CHECK(lesson_frame(39, 40, 3).mix == 0.0);
  CHECK(lesson_frame(5, 10, 1).step == 0);
}

TEST_CASE("a lesson animation's steps: 1-based, to 0 is the last step, refused outside the lesson") {
  const auto span = [](double from, double to, int frames = 60) {
    return lesson_span(AnimationSpec{AnimatedParam::lesson, from, to, frames, 30}, 13, "tour.json");
  };
  CHECK(span(1, 0).first == 1);
  CHECK(span(1, 0).last == 13);
  CHECK(span(1, 0).count() == 13);
  CHECK(span(2, 4).count() == 3);
  CHECK(span(13, 13).count() == 1);
  CHECK_THROWS_WITH(span(0, 3), Catch::Contains("steps 1..13 of tour.json"));
  CHECK_THROWS_WITH(span(2, 14), Catch::Contains("got 2..14"));
  CHECK_THROWS_AS(span(5, 4), ParamError);
  CHECK_THROWS_WITH(span(1, 0, 12), Catch::Contains("at least the number of steps shown (13)"));
  CHECK_NOTHROW(span(1, 0, 13));
}

TEST_CASE("a lesson animation's frames hold a step's picture, then blend it into the next per byte") {
  const auto picture = [](std::uint8_t v) {
    RgbaImage img;
    img.width = 2;
    img.height = 1;
    img.pixels.assign(8, v);
    return img;
  };
  const std::vector<RgbaImage> pictures = {picture(0), picture(200), picture(100)};
  for (int f = 0; f < 40; ++f) {
    const LessonFrame l = lesson_frame(f, 40, 3);
    const double want = (1.0 - l.mix) * pictures[std::size_t(l.step)].pixels[0] + l.mix * pictures[std::size_t(l.next)].pixels[0];
    const RgbaImage img = lesson_animation_frame(pictures, f, 40);
    REQUIRE(img.pixels.size() == 8);
    CHECK(img.pixels[0] == std::lround(want));
    CHECK(img.pixels[7] == img.pixels[0]);
  }
  CHECK(lesson_animation_frame(pictures, 0, 40).pixels[0] == 0);    // held
  CHECK(lesson_animation_frame(pictures, 12, 40).pixels[0] == 120);  // 0.6 of the way from 0 to 200
  CHECK(lesson_animation_frame(pictures, 39, 40).pixels[0] == 100);  // the last step holds
}

TEST_CASE("a recording's file name says the swept range, not the value shown when it started") {
  CHECK(sweep_file_part(default_sweep(AnimatedParam::position)) == "position-0-to-64");
  CHECK(sweep_file_part(default_sweep(AnimatedParam::base)) == "base-100-to-500000");
  CHECK(sweep_file_part(default_sweep(AnimatedParam::factor)) == "factor-1-to-32");
  AnimationSpec big{AnimatedParam::base, 10.0, 1e7, 30, 15};
  CHECK(sweep_file_part(big) == "base-10-to-10000000");  // no exponent ('+') in a file name
  CHECK(lesson_file_part(LessonSpan{2, 7}) == "lesson-steps-2-to-7");
}
