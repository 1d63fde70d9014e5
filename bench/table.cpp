#include "bench/table.h"

#include <algorithm>
#include <utility>

namespace gpucrypto::bench {
namespace {

std::string pad(const std::string& s, size_t width, bool left) {
  const std::string fill(width > s.size() ? width - s.size() : 0, ' ');
  return left ? s + fill : fill + s;
}

}  // namespace

Table::Table(std::string title, std::vector<std::string> header, int left_columns)
    : title_(std::move(title)), header_(std::move(header)), left_(left_columns) {}

void Table::add_row(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

void Table::add_gap() {
  if (!rows_.empty() && !rows_.back().empty()) rows_.emplace_back();
}

std::vector<size_t> Table::widths() const {
  std::vector<size_t> w;
  for (const auto& h : header_) w.push_back(h.size());
  for (const auto& r : rows_)
    for (size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
  return w;
}

std::string Table::console() const {
  const auto w = widths();
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (size_t i = 0; i < cells.size(); ++i) {
      if (i != 0) s += "  ";
      s += pad(cells[i], w[i], int(i) < left_);
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::string out = "== " + title_ + " ==\n" + line(header_);
  std::vector<std::string> rule;
  for (size_t x : w) rule.emplace_back(x, '-');
  out += line(rule);
  for (const auto& r : rows_) out += r.empty() ? "\n" : line(r);
  for (const auto& n : notes_) out += n + "\n";
  return out;
}

std::string Table::markdown() const {
  const auto w = widths();
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s = "|";
    for (size_t i = 0; i < cells.size(); ++i) {
      // Appended piece by piece: `" " + string` trips GCC 12's -Wrestrict at -O3.
      s += ' ';
      s += pad(cells[i], w[i], int(i) < left_);
      s += " |";
    }
    return s + "\n";
  };
  std::string out = "### " + title_ + "\n\n" + line(header_) + "|";
  for (size_t i = 0; i < w.size(); ++i)
    if (int(i) < left_) {
      out += ':';
      out.append(w[i] + 1, '-');
      out += '|';
    } else {
      out.append(w[i] + 1, '-');
      out += ":|";
    }
  out += "\n";
  for (const auto& r : rows_)
    if (!r.empty()) out += line(r);
  if (!notes_.empty()) out += "\n";
  for (const auto& n : notes_) out += n + "\n\n";
  return out + (notes_.empty() ? "\n" : "");
}

}  // namespace gpucrypto::bench
