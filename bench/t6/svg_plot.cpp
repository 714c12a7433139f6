#include "bench/t6/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "harness/core/report_junit.hpp"

namespace mmaemu::t6 {
namespace {

using report_junit::xml_escape;  // one XML escaping for every report the project writes

constexpr double kPanelW = 440, kPanelH = 320;       // one panel, axes and legend included
constexpr double kLeft = 62, kRight = 120, kTop = 34, kBottom = 46;  // margins around the axes
constexpr int kColumns = 3;
constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                    "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// "1e9" style labels for decades: short enough for the axis.
std::string decade_label(int e) {
  if (e >= 0 && e <= 3) return std::to_string(static_cast<int>(std::pow(10, e)));
  if (e == -1) return "0.1";
  if (e == -2) return "0.01";
  return "1e" + std::to_string(e);
}

struct Range {
  int lo = 0, hi = 1;  // decades
  double map(double v, double from, double to) const {
    const double t = (std::log10(v) - lo) / (hi - lo);
    return from + t * (to - from);
  }
};

Range decades(const std::vector<double>& values) {
  Range r;
  if (values.empty()) return r;
  const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  r.lo = static_cast<int>(std::floor(std::log10(*mn)));
  r.hi = static_cast<int>(std::ceil(std::log10(*mx)));
  if (r.hi <= r.lo) r.hi = r.lo + 1;
  return r;
}

void panel_svg(std::ostringstream& s, const PlotPanel& p, double ox, double oy, const Plot& plot,
               const std::map<std::string, std::string>& colour) {
  const double x0 = ox + kLeft, x1 = ox + kPanelW - kRight, y0 = oy + kPanelH - kBottom, y1 = oy + kTop;
  std::vector<double> xs, ys;
  for (const PlotSeries& ser : p.series)
    for (const auto& [x, y] : ser.points)
      if (x > 0 && y > 0) {
        xs.push_back(x);
        ys.push_back(y);
      }
  s << "<g>\n<text x=\"" << fmt((x0 + x1) / 2) << "\" y=\"" << fmt(oy + 20)
    << "\" text-anchor=\"middle\" font-weight=\"bold\">" << xml_escape(p.title) << "</text>\n";
  s << "<rect x=\"" << fmt(x0) << "\" y=\"" << fmt(y1) << "\" width=\"" << fmt(x1 - x0) << "\" height=\""
    << fmt(y0 - y1) << "\" fill=\"none\" stroke=\"#444\"/>\n";
  if (xs.empty()) {
    s << "<text x=\"" << fmt((x0 + x1) / 2) << "\" y=\"" << fmt((y0 + y1) / 2)
      << "\" text-anchor=\"middle\" fill=\"#888\">no measurements</text>\n</g>\n";
    return;
  }
  const Range rx = decades(xs), ry = decades(ys);
  for (int e = rx.lo; e <= rx.hi; ++e) {
    const double x = rx.map(std::pow(10, e), x0, x1);
    s << "<line x1=\"" << fmt(x) << "\" y1=\"" << fmt(y0) << "\" x2=\"" << fmt(x) << "\" y2=\"" << fmt(y1)
      << "\" stroke=\"#ddd\"/>\n<text x=\"" << fmt(x) << "\" y=\"" << fmt(y0 + 16)
      << "\" text-anchor=\"middle\" font-size=\"11\">" << decade_label(e) << "</text>\n";
  }
  for (int e = ry.lo; e <= ry.hi; ++e) {
    const double y = ry.map(std::pow(10, e), y0, y1);
    s << "<line x1=\"" << fmt(x0) << "\" y1=\"" << fmt(y) << "\" x2=\"" << fmt(x1) << "\" y2=\"" << fmt(y)
      << "\" stroke=\"#ddd\"/>\n<text x=\"" << fmt(x0 - 6) << "\" y=\"" << fmt(y + 4)
      << "\" text-anchor=\"end\" font-size=\"11\">" << decade_label(e) << "</text>\n";
  }
  s << "<text x=\"" << fmt((x0 + x1) / 2) << "\" y=\"" << fmt(y0 + 36) << "\" text-anchor=\"middle\" font-size=\"12\">"
    << xml_escape(plot.x_label) << "</text>\n";
  s << "<text x=\"" << fmt(ox + 16) << "\" y=\"" << fmt((y0 + y1) / 2) << "\" text-anchor=\"middle\" font-size=\"12\" "
    << "transform=\"rotate(-90 " << fmt(ox + 16) << " " << fmt((y0 + y1) / 2) << ")\">" << xml_escape(plot.y_label)
    << "</text>\n";
  double legend_y = y1 + 8;
  for (const PlotSeries& ser : p.series) {
    std::vector<std::pair<double, double>> pts;
    for (const auto& pt : ser.points)
      if (pt.first > 0 && pt.second > 0) pts.push_back(pt);
    std::sort(pts.begin(), pts.end());
    const std::string& c = colour.at(ser.name);
    if (ser.line && pts.size() > 1) {
      s << "<polyline fill=\"none\" stroke=\"" << c << "\" stroke-width=\"1.8\""
        << (ser.dashed ? " stroke-dasharray=\"6 3\"" : "") << " points=\"";
      for (const auto& [x, y] : pts) s << fmt(rx.map(x, x0, x1)) << "," << fmt(ry.map(y, y0, y1)) << " ";
      s << "\"/>\n";
    }
    for (const auto& [x, y] : pts)
      s << "<circle cx=\"" << fmt(rx.map(x, x0, x1)) << "\" cy=\"" << fmt(ry.map(y, y0, y1)) << "\" r=\""
        << (ser.line ? "2.5" : "4") << "\" fill=\"" << (ser.line ? c : "none") << "\" stroke=\"" << c << "\"/>\n";
    s << "<line x1=\"" << fmt(x1 + 8) << "\" y1=\"" << fmt(legend_y) << "\" x2=\"" << fmt(x1 + 24) << "\" y2=\""
      << fmt(legend_y) << "\" stroke=\"" << c << "\" stroke-width=\"2\"" << (ser.dashed ? " stroke-dasharray=\"4 2\"" : "")
      << "/>\n<text x=\"" << fmt(x1 + 28) << "\" y=\"" << fmt(legend_y + 4) << "\" font-size=\"11\">"
      << xml_escape(ser.name) << "</text>\n";
    legend_y += 15;
  }
  s << "</g>\n";
}

}  // namespace


std::string render_svg_loglog(const Plot& plot) {
  std::map<std::string, std::string> colour;
  size_t next = 0;
  for (const PlotPanel& p : plot.panels)
    for (const PlotSeries& s : p.series)
      if (!colour.count(s.name)) colour[s.name] = kPalette[next++ % (sizeof kPalette / sizeof *kPalette)];
  const size_t n = std::max<size_t>(plot.panels.size(), 1);
  const size_t cols = std::min<size_t>(n, kColumns), rows = (n + cols - 1) / cols;
  const double width = cols * kPanelW, height = rows * kPanelH + 30;
  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << fmt(width) << "\" height=\"" << fmt(height)
    << "\" viewBox=\"0 0 " << fmt(width) << " " << fmt(height) << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" << xml_escape(plot.title) << "</text>\n";
  for (size_t i = 0; i < plot.panels.size(); ++i)
    panel_svg(s, plot.panels[i], static_cast<double>(i % cols) * kPanelW, 30 + static_cast<double>(i / cols) * kPanelH,
              plot, colour);
  s << "</svg>\n";
  return s.str();
}

}  // namespace mmaemu::t6
