// A small SVG writer for log-log line plots (rate against problem size), so that reports carry a
// picture without a plotting dependency. Panels side by side (small multiples, one per format), one
// colour per series name across every panel, a legend per panel.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace mmaemu::t6 {

struct PlotSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y); points with x or y <= 0 are not drawn
  bool line = true;     // false: markers only (points that do not lie on one curve)
  bool dashed = false;  // the reference line (native)
};

struct PlotPanel {
  std::string title;
  std::vector<PlotSeries> series;
};

struct Plot {
  std::string title, x_label, y_label;
  std::vector<PlotPanel> panels;
};

// A complete SVG document (XML); text is escaped.
std::string render_svg_loglog(const Plot& plot);


}  // namespace mmaemu::t6
