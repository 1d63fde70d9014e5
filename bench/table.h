// A text table rendered either with aligned columns for the console or as a
// Markdown pipe table. Cells are ASCII (widths are byte counts).
#pragma once
#include <string>
#include <vector>

namespace gpucrypto::bench {

class Table {
 public:
  // The first `left_columns` columns are left aligned (names), the rest
  // right aligned (numbers).
  Table(std::string title, std::vector<std::string> header, int left_columns);
  void add_row(std::vector<std::string> cells);
  // A visual break between groups of rows (console only).
  void add_gap();
  // Free text printed under the table.
  void add_note(std::string note) { notes_.push_back(std::move(note)); }
  bool empty() const { return rows_.empty(); }
  std::string console() const;
  std::string markdown() const;

 private:
  std::vector<size_t> widths() const;
  std::string title_;
  std::vector<std::string> header_;
  int left_;
  std::vector<std::vector<std::string>> rows_;  // an empty row is a gap
  std::vector<std::string> notes_;
};

}  // namespace gpucrypto::bench
