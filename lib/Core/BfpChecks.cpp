//===- BfpChecks.cpp - the rules of a BFP call (§5) -----------------------===//
//
// The checks of a BFP or MX call (tile shapes, input types, flags, sites,
// buffers) and the texts of their errors, each built from the table it
// names (BfpTileShapes.def, kBfpInputDtypes, BfpFlags.def, BfpSites.def).
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Bfp.h"
#include "BfpLayout.h"
#include "TextList.h"
#include "birsim/Core/Dtype.h"

#include <string>
#include <vector>

namespace birsim::core {

const BfpTileShape *lookupBfpTileShape(uint64_t rows, uint64_t cols) {
  for (const BfpTileShape &shape : kBfpTileShapes)
    if (shape.rows == rows && shape.cols == cols)
      return &shape;
  return nullptr;
}

std::string bfpTileShapeChoices() {
  std::vector<std::string> shapes;
  for (const BfpTileShape &shape : kBfpTileShapes)
    shapes.push_back(std::to_string(shape.rows) + "x" +
                     std::to_string(shape.cols));
  return textList(shapes);
}

bool isBfpInputDtype(int dtype) {
  for (Dtype d : kBfpInputDtypes)
    if (int(d) == dtype)
      return true;
  return false;
}

/// "BFP packing takes float32 (16), ... or uint32 (14) values": the rows
/// of kBfpInputDtypes, by name and number.
static const char *inputChoices() {
  static const std::string text = [] {
    std::vector<std::string> inputs;
    for (Dtype d : kBfpInputDtypes)
      inputs.push_back(std::string(dtypeInfo(d).name) + " (" +
                       std::to_string(int(d)) + ")");
    return "BFP packing takes " + textList(inputs) + " values";
  }();
  return text.c_str();
}

Status bfpCheckInput(int srcDtype) {
  if (!isBfpInputDtype(srcDtype))
    return Status::error(ErrorCode::invalidArgument, srcDtype, 0,
                         inputChoices());
  return Status::success();
}

/// "the tile forms take the flags faces (1), page32 (8) or page64 (16)
/// only": BfpFlags.def's rows.
static std::string flagChoicesOf(BfpForm form) {
  std::vector<std::string> names;
  for (const BfpFlagInfo &f : kBfpFlags)
    if (f.takenBy(form))
      names.push_back(std::string(f.name) + " (" + std::to_string(f.bits) +
                      ")");
  return std::string("the ") + (form == BfpForm::Tiles ? "tile" : "matrix") +
         " forms take the flags " + textList(names) + " only";
}
static const char *flagChoices(BfpForm form) {
  static const std::string text[2] = {flagChoicesOf(BfpForm::Tiles),
                                      flagChoicesOf(BfpForm::Matrix)};
  return text[int(form)].c_str();
}

BfpMatrixExtent bfpMatrixOf(const int64_t *dims, size_t rank) {
  if (rank == 0)
    return {0, 0};
  uint64_t rows = 1;
  for (size_t i = 0; i + 1 < rank; ++i)
    rows *= uint64_t(dims[i]);
  return {rows, uint64_t(dims[rank - 1])};
}

/// "not a BFP site: expected host (0), fp32_dest (1), ..." (BfpSites.def).
static const char *siteChoices() {
  static const std::string text = [] {
    std::vector<std::string> sites;
    for (const BfpSiteInfo &site : kBfpSiteTable)
      sites.push_back(std::string(site.name) + " (" +
                      std::to_string(int(site.site)) + ")");
    return "not a BFP site: expected " + textList(sites, ", ");
  }();
  return text.c_str();
}

/// "a Dest path packs its Dest's element type: float32 at fp32_dest, ...".
static const char *destChoices() {
  static const std::string text = [] {
    std::vector<std::string> dests;
    for (const BfpSiteInfo &site : kBfpSiteTable)
      if (site.onDevice())
        dests.push_back(std::string(dtypeInfo(Dtype(site.dest)).name) +
                        " at " + site.name);
    return "a Dest path packs its Dest's element type: " +
           textList(dests, ", ");
  }();
  return text.c_str();
}

Status bfpCheckPackAt(const BfpCall &call, int srcDtype) {
  if (call.flags & kBfpFlag_exp_search) {
    const char *rule = nullptr;
    if (call.site != int(BfpSite::host))
      rule = "the exponent search is the host packer's (tt-metal PR #57298)";
    else if (call.format != int(BfpFormat::bfp8_b) &&
             call.format != int(BfpFormat::bfp4_b))
      rule = "the exponent search takes bfp8_b and bfp4_b (tt-metal PR "
             "#57298)";
    else if (srcDtype != int(Dtype::float32) &&
             srcDtype != int(Dtype::bfloat16))
      rule = "the exponent search takes float32 and bfloat16 input "
             "(tt-metal PR #57298)";
    if (rule)
      return Status::error(ErrorCode::invalidArgument, int64_t(call.flags), 0,
                           rule);
  }
  const BfpSiteInfo *site = lookupBfpSite(call.site);
  if (!site || !site->onDevice())
    return bfpCheckInput(srcDtype);
  if (srcDtype != int(site->dest))
    return Status::error(ErrorCode::invalidArgument, srcDtype, 0,
                         destChoices());
  const BfpFormatInfo *f = lookupBfpFormat(call.format);
  if (f && f->magnitudeBits < site->minMagnitudeBits)
    return Status::error(
        ErrorCode::invalidArgument, call.format, 0,
        site->minMagnitudeBits == 7
            ? "the fp16 Dest path writes bfp8_b only (ttsim mode 0x26)"
            : "no bfp2 output through the bfp8 intermediate (ttsim refuses "
              "modes 0x16F and 0x6F)");
  return Status::success();
}

Status bfpCheckSite(const BfpCall &call) {
  if (!lookupBfpFormat(call.format))
    return Status::error(ErrorCode::invalidFormat, call.format);
  const BfpSiteInfo *site = lookupBfpSite(call.site);
  if (!site)
    return Status::error(ErrorCode::invalidArgument, call.site, 0,
                         siteChoices());
  const BfpFormatInfo &f = *lookupBfpFormat(call.format);
  if (site->onDevice() && f.isMx())
    return Status::error(ErrorCode::invalidArgument, call.format, 0,
                         "the Tensix packer paths are the BFP \"b\" "
                         "formats' (MX tiles are the host packer's)");
  if (site->onDevice() && f.exponent != BfpExponent::Fp32)
    return Status::error(ErrorCode::invalidArgument, call.format, 0,
                         "the Tensix packer and unpacker have no \"a\" "
                         "format path (ttsim refuses exponent-A BFP)");
  return Status::success();
}

/// The flags that select a page alignment (BfpFlags.def's PageBytes).
static constexpr unsigned kPageFlags = [] {
  unsigned bits = 0;
  for (const BfpFlagInfo &flag : kBfpFlags)
    bits |= flag.pageBytes ? flag.bits : 0;
  return bits;
}();

/// BfpFlags.def's rows with a PageBytes, each as `item` spells it, after
/// `items`, joined as a list after `lead`.
template <class Item>
static std::string pageList(const char *lead, std::vector<std::string> items,
                            Item item) {
  for (const BfpFlagInfo &flag : kBfpFlags)
    if (flag.pageBytes)
      items.push_back(item(flag));
  return lead + textList(items);
}
/// "one page alignment: page32 (8) or page64 (16)".
static const char *pageFlagChoices() {
  static const std::string text =
      pageList("one page alignment: ", {}, [](const BfpFlagInfo &flag) {
        return std::string(flag.name) + " (" + std::to_string(flag.bits) + ")";
      });
  return text.c_str();
}
/// "a page alignment is 0 (none), 32 (page32) or 64 (page64)".
static const char *pageChoices() {
  static const std::string text = pageList(
      "a page alignment is ", {"0 (none)"}, [](const BfpFlagInfo &flag) {
        return std::to_string(flag.pageBytes) + " (" + flag.name + ")";
      });
  return text.c_str();
}

Status bfpCheckCall(const BfpCall &call, uint64_t *tileCount) {
  if (Status s = bfpCheckSite(call))
    return s;
  const BfpTileShape *shape = lookupBfpTileShape(call.tileRows, call.tileCols);
  if (!shape)
    return Status::error(ErrorCode::invalidTileShape, int64_t(call.tileRows),
                         int64_t(call.tileCols));
  if (!lookupBfpFormat(call.format)->takesTileOf(shape->values()))
    return Status::error(ErrorCode::invalidArgument, int64_t(call.tileRows),
                         int64_t(call.tileCols),
                         "MX tiles hold whole 32-value blocks: every tile "
                         "shape but 1x16 (tt-metal's MX packers)");
  if (call.flags & ~bfpFlagsOf(call.form))
    return Status::error(ErrorCode::invalidArgument, int64_t(call.flags), 0,
                         flagChoices(call.form));
  if (bfpPageFlagOf(bfpPageAlignmentOf(call.flags)) !=
      (call.flags & kPageFlags))
    return Status::error(ErrorCode::invalidArgument, int64_t(call.flags), 0,
                         pageFlagChoices());
  uint64_t tiles = call.tiles;
  if (call.form == BfpForm::Matrix) {
    if (call.rows % shape->rows || call.cols % shape->cols)
      return Status::error(ErrorCode::invalidArgument, 0, 0,
                           "matrix rows (leading dimensions folded into "
                           "rows) and columns must be whole tiles");
    if ((call.flags & kBfpTranspose) && shape->rows < 16)
      return Status::error(ErrorCode::invalidArgument, shape->rows, 0,
                           "transposed tilizing takes tile heights 16 and 32 "
                           "(tt-metal's Tile)");
    if (call.cols != 0 && call.rows > uint64_t(PTRDIFF_MAX) / 4 / call.cols)
      return Status::error(ErrorCode::invalidArgument, 0, 0,
                           "rows times columns overflows the address space");
    tiles = call.rows && call.cols
                ? (call.rows / shape->rows) * (call.cols / shape->cols)
                : 0;
  }
  if (tileCount)
    *tileCount = tiles;
  return Status::success();
}

std::string bfpRuleText(const Status &status) {
  if (status.code == ErrorCode::invalidArgument && status.detail)
    return status.detail;
  return status.message();
}

/// The runtime's checks of a call on buffers: the rules, then non-null
/// buffers and sizes; `valueBytes` is the unpacked side's element size.
Status bfpCheckBuffers(const BfpCall &call, const void *packed,
                             const void *values, size_t valueBytes,
                             uint64_t &tiles) {
  if (Status s = bfpCheckCall(call, &tiles))
    return s;
  if (tiles != 0 && (!packed || !values))
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null buffer with a non-zero tile count");
  return checkCount(size_t(tiles),
                    size_t(call.tileRows) * call.tileCols * valueBytes);
}

size_t bfpPageBytes(int format, uint64_t tileRows, uint64_t tileCols,
                    unsigned alignment) {
  const BfpFormatInfo *f = lookupBfpFormat(format);
  const BfpTileShape *shape = lookupBfpTileShape(tileRows, tileCols);
  if (!f || !shape || !f->takesTileOf(shape->values()) ||
      bfpPageFlagOf(alignment) == kBfpNoPageFlag)
    return 0;
  size_t bytes = shape->packedBytes(*f);
  return alignment ? (bytes + alignment - 1) / alignment * alignment : bytes;
}

Status bfpCheckPage(int format, uint64_t tileRows, uint64_t tileCols,
                    unsigned alignment, size_t *bytes) {
  if (Status s = bfpCheckCall(bfpTilesCall(int(BfpSite::host), format, 0,
                                           tileRows, tileCols, 0)))
    return s;
  if (bfpPageFlagOf(alignment) == kBfpNoPageFlag)
    return Status::error(ErrorCode::invalidArgument, alignment, 0,
                         pageChoices());
  *bytes = bfpPageBytes(format, tileRows, tileCols, alignment);
  return Status::success();
}

} // namespace birsim::core
