// The parts of a launch page made from its source lines (src/report's own header): the worst
// lines at the top of the page, the source view with the memory instructions under their lines,
// and the pictures of the worst warp accesses.
#pragma once

#include <string>
#include <vector>

#include "report/html_common.hpp"

namespace warpscope::report::html {

/// The instructions to draw: at most five with a `sample`, the largest instruction_excess()
/// first (file, line, pc order on ties).
std::vector<const json*> worst_instructions(const FileGroups& groups);

/// `<table id="worst-lines">`: the five lines with the largest line_excess() > 0 (file and line
/// order on ties), each `<tr class="worst-line" data-file data-line>` linking to its source row.
std::string worst_lines_table(const FileGroups& groups);

/// The source view: a `<table class="src">` per file; columns whose counter is zero on every line
/// and instruction of the launch are left out.
std::string source_section(const FileGroups& groups, const std::vector<const json*>& pictured);

/// The pictures of `pictured`, worst first: `<figure class="access-svg" id="access-K">`.
std::string accesses_section(const FileGroups& groups, const std::vector<const json*>& pictured);

/// The first box of each tensor copy with a `tma_box` (at most five, in file, line, pc order):
/// `<figure class="tma-svg" id="tma-K">` holding render_tma_box_svg (tma_svg.hpp); "" if none.
std::string tma_boxes_section(const FileGroups& groups);

}  // namespace warpscope::report::html
