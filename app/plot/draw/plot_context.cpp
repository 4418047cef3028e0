// The plotting layer's state, hung on the current ImGui context.
#include "app/plot/draw/plot_context.hpp"

namespace peviz::plot {

void create_context() {
  ImGuiIO& io = ImGui::GetIO();
  IM_ASSERT(io.UserData == nullptr && "plot::create_context: this ImGui context has one already");
  io.UserData = new PlotContext();
}

void destroy_context() {
  ImGuiIO& io = ImGui::GetIO();
  delete static_cast<PlotContext*>(io.UserData);
  io.UserData = nullptr;
}

PlotContext& context() {
  void* state = ImGui::GetIO().UserData;
  IM_ASSERT(state && "plot::create_context() after ImGui::CreateContext()");
  return *static_cast<PlotContext*>(state);
}

}  // namespace peviz::plot
