//===- TuneCommand.cpp - `tcuc tune` --------------------------------------===//
//
// Turns the measurements of a benchmark sweep (bench/run.sh on a GPU writes
// results.csv) into the cost model's tuned table for one arch: the fastest
// variant, tiles per warp and warps per block per op, element types and
// segment size, then each other variant's fastest (mlir::tcu::tuneTable).
// The output is TunedTables.inc's format: build it in
// (compiler/lib/Strategy/TunedTables.inc) or pass it to
// --tcu-select-strategy="table=FILE".
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "tcuc/Reference/Reference.h"
#include "tcuc/Spec.h"
#include "tcuc/Strategy/CostModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::tcu;
using tcuc::driver::tcucCategory;
using tcuc::driver::tuneCommand;

cl::SubCommand tcuc::driver::tuneCommand(
    "tune", "Make the cost model's tuned table from a benchmark sweep "
            "(bench/ results.csv measured on a GPU)");

namespace {
cl::opt<std::string> csvPath("csv", cl::desc("The sweep's results.csv"),
                             cl::value_desc("file"), cl::Required,
                             cl::sub(tuneCommand), cl::cat(tcucCategory));
cl::opt<std::string> tuneArch("arch",
                              cl::desc("The GPU the sweep ran on: its "
                                       "architecture (sm_80, sm_90: rows for "
                                       "every GPU of it) or its model (h200: "
                                       "rows for that GPU first)"),
                              cl::init("sm_90"), cl::sub(tuneCommand),
                              cl::cat(tcucCategory));
cl::opt<std::string> tableOut("o", cl::desc("Output table ('-' = stdout)"),
                              cl::value_desc("file"), cl::init("-"),
                              cl::sub(tuneCommand), cl::cat(tcucCategory));

int fail(const Twine &message) {
  errs() << "tcuc tune: " << message << "\n";
  return 2;
}

/// The fields of one CSV line (RFC 4180 quoting: "a,b" and "" inside).
SmallVector<std::string> csvFields(StringRef line) {
  SmallVector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
      fields.back() += '"', ++i;
    else if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      fields.emplace_back();
    else
      fields.back() += c;
  }
  return fields;
}

/// A bench row of an explicit tcuc strategy ("tcuc:seg256n:2") at a
/// numeric segment size, as a Measurement; false for every other row
/// (peers, the default choice, the whole array, failed configurations).
bool toMeasurement(ArrayRef<std::string> f, ArrayRef<int> at, Measurement &m,
                   std::string &error) {
  auto field = [&](int k) -> StringRef { return f[at[k]]; };
  if (!field(2).starts_with("tcuc:") || field(4).empty())
    return false;
  SmallVector<StringRef> op;
  field(0).split(op, ' '); // "scan f16->f32"
  if (op.size() != 2 || op[1].split("->").second.empty()) {
    error = "op '" + field(0).str() + "' is not 'OP IN->OUT'";
    return false;
  }
  if (field(1).getAsInteger(10, m.segment))
    return false; // "whole": the largest row covers it
  auto [name, config] = field(3).split(':');
  auto [tiles, warps] = config.split(':');
  m.op = op[0].str();
  m.input = op[1].split("->").first.str();
  m.output = op[1].split("->").second.str();
  m.variant = name.str();
  m.tilesPerWarp = 1;
  m.warpsPerBlock = 0;
  if ((!tiles.empty() && tiles.getAsInteger(10, m.tilesPerWarp)) ||
      (!warps.empty() && warps.getAsInteger(10, m.warpsPerBlock)) ||
      !symbolizeVariant(m.variant) || m.tilesPerWarp < 1 ||
      m.tilesPerWarp > tcuc::kMaxTilesPerWarp ||
      !tcuc::isWarpsPerBlock(m.warpsPerBlock) ||
      (m.warpsPerBlock && !tcuc::takesWarpsPerBlock(m.variant))) {
    error = "variant '" + field(3).str() +
            "' is not VARIANT, VARIANT:TILES or block:TILES:WARPS / "
            "lookback:TILES:WARPS (a tcu "
            "variant, tiles 1.." +
            std::to_string(tcuc::kMaxTilesPerWarp) +
            ", warps a power of two up to " +
            std::to_string(tcuc::kMaxWarpsPerBlock) + ")";
    return false;
  }
  if (!to_float(field(4), m.ms) || !(m.ms > 0)) {
    error = "ms '" + field(4).str() + "' is not a positive number";
    return false;
  }
  return true;
}
} // namespace

int tcuc::driver::runTune() {
  for (const cl::opt<std::string> *path : {&csvPath, &tableOut})
    if (std::string e = givenPathError(*path); !e.empty())
      return fail(e);
  auto file = MemoryBuffer::getFile(csvPath);
  if (!file)
    return fail("cannot read '" + csvPath + "': " + file.getError().message());
  SmallVector<StringRef> lines;
  (*file)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  if (lines.empty())
    return fail("'" + csvPath + "' is empty");
  // Columns by name, so added columns do not break old tables.
  SmallVector<std::string> header = csvFields(lines.front().rtrim("\r"));
  const char *names[] = {"op", "segment", "lib", "variant", "ms"};
  SmallVector<int> at;
  for (const char *n : names) {
    auto it = llvm::find(header, n);
    if (it == header.end())
      return fail("'" + csvPath + "' has no '" + n +
                  "' column (not a bench/ results.csv?)");
    at.push_back(int(it - header.begin()));
  }
  std::vector<Measurement> measured;
  for (auto [i, line] : llvm::enumerate(ArrayRef(lines).drop_front())) {
    SmallVector<std::string> f = csvFields(line.rtrim("\r"));
    if (f.size() != header.size())
      return fail(csvPath + ":" + Twine(i + 2) + ": " + Twine(f.size()) +
                  " fields, the header has " + Twine(header.size()));
    Measurement m;
    std::string error;
    if (toMeasurement(f, at, m, error))
      measured.push_back(m);
    else if (!error.empty())
      return fail(csvPath + ":" + Twine(i + 2) + ": " + error);
  }
  if (measured.empty())
    return fail("'" + csvPath + "' has no timed tcuc:VARIANT rows");

  std::string table;
  raw_string_ostream os(table);
  os << "// Generated by `tcuc tune --csv " << csvPath << " --arch " << tuneArch
     << "`:\n"
     << "// the fastest variant, tiles per warp and warps per block (0: "
        "the\n// variant's rule) measured per segment size, then each other "
        "measured\n// variant's fastest (for a caller who fixes the "
        "variant).\n"
     << "// Do not edit; regenerate from a new sweep "
        "(docs/performance.md).\n";
  for (const TunedRow &row : tuneTable(measured, tuneArch))
    os << formatTunedRow(row) << "\n";
  std::string error;
  if (!ref::writeRawFile(tableOut, table.data(), table.size(), &error))
    return fail(error);
  return 0;
}
