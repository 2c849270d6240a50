//===- LaneChecks.h - every lane operation against the portable ones ------===//
//
// Included inside a path's target region (VocabularyAvx2Test.cpp, ...), so
// each check is compiled for that path, as Highway's tests are per target.
// checkLaneOps<V, Bits>() runs each operation of a lane vocabulary V
// (LaneArithmetic.h's GenericLaneOps and the ISA's masks, selects, shifts,
// float min/max, NaN tests and counters) on LaneReference.h's edge lanes
// (every pair for two operands, every shift amount) and checkVocabularyOps
// <X>() each generic operation of a path's vocabulary X (loads, stores,
// widening, integer ops, 16-bit interleaves, packs, fp16 sums). A wrong
// lane is reported by path, operation, lane width and operands.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_TEST_UNIT_CORE_KERNELS_LANECHECKS_H
#define BIRSIM_TEST_UNIT_CORE_KERNELS_LANECHECKS_H

namespace lanes = birsim::test::lanes;

/// Lanes of `Bits` bits to and from a vector I.
template <class V, unsigned Bits> struct LaneIo {
  using I = typename V::I;
  static constexpr unsigned kLanes = unsigned(sizeof(I)) * 8 / Bits;
  static I load(const uint32_t *lanes) {
    unsigned char bytes[sizeof(I)];
    for (unsigned i = 0; i < kLanes; ++i)
      std::memcpy(bytes + i * (Bits / 8), &lanes[i], Bits / 8);
    I v;
    std::memcpy(&v, bytes, sizeof(I));
    return v;
  }
  static void store(I v, uint32_t *lanes) {
    unsigned char bytes[sizeof(I)];
    std::memcpy(bytes, &v, sizeof(I));
    for (unsigned i = 0; i < kLanes; ++i) {
      lanes[i] = 0;
      std::memcpy(&lanes[i], bytes + i * (Bits / 8), Bits / 8);
    }
  }
  /// A mask as lanes of 1 (set) or 0.
  template <class M> static void storeMask(M m, uint32_t *lanes) {
    store(V::select(m, V::splat(1), V::zero()), lanes);
  }
};

/// Runs `op` on vectors of operand lanes drawn from `operands` (one tuple
/// of lanes per lane) and compares each lane with `want`; `same` compares
/// a lane (exact unless given).
template <class V, unsigned Bits, unsigned Arity> struct Runner {
  using Io = LaneIo<V, Bits>;
  using I = typename V::I;
  const char *path;
  lanes::Failures &failures;

  template <class Op, class Want, class Same>
  void run(const char *name, const std::vector<std::array<uint32_t, Arity>> &operands,
           Op op, Want want, Same same) {
    constexpr unsigned n = Io::kLanes;
    for (size_t start = 0; start < operands.size(); start += n) {
      uint32_t in[Arity][n] = {}, out[n];
      for (unsigned i = 0; i < n; ++i)
        for (unsigned k = 0; k < Arity; ++k)
          in[k][i] = operands[std::min(start + i, operands.size() - 1)][k];
      I v[Arity];
      for (unsigned k = 0; k < Arity; ++k)
        v[k] = Io::load(in[k]);
      op(v, out);
      for (unsigned i = 0; i < n && start + i < operands.size(); ++i) {
        const auto &args = operands[start + i];
        uint32_t expected = want(args);
        if (!same(out[i], expected)) {
          std::vector<uint64_t> shown(args.begin(), args.end());
          std::string text = " " + lanes::hexList(shown);
          failures.add(path, name, Bits, text, out[i], expected);
          return;
        }
      }
    }
  }
  template <class Op, class Want>
  void run(const char *name, const std::vector<std::array<uint32_t, Arity>> &operands,
           Op op, Want want) {
    run(name, operands, op, want, [](uint32_t a, uint32_t b) { return a == b; });
  }
};

template <unsigned Bits> std::vector<std::array<uint32_t, 1>> singles() {
  std::vector<std::array<uint32_t, 1>> v;
  for (uint32_t a : lanes::edgeLanes(Bits))
    v.push_back({a});
  return v;
}
template <unsigned Bits> std::vector<std::array<uint32_t, 2>> pairs() {
  std::vector<std::array<uint32_t, 2>> v;
  for (uint32_t a : lanes::edgeLanes(Bits))
    for (uint32_t b : lanes::edgeLanes(Bits))
      v.push_back({a, b});
  return v;
}
/// Each edge lane with every shift amount below `limit`.
template <unsigned Bits>
std::vector<std::array<uint32_t, 2>> shifts(uint32_t limit) {
  std::vector<std::array<uint32_t, 2>> v;
  for (uint32_t a : lanes::edgeLanes(Bits))
    for (uint32_t n = 0; n < limit; ++n)
      v.push_back({a, n});
  return v;
}

/// Every lane operation of V on lanes of Bits bits. `VariableShifts`:
/// whether V has shrv/shlv at this width; `Counters`: count/countIfOne.
template <class V, unsigned Bits, bool VariableShifts, bool Counters, bool NoneSet>
void checkLaneOps(const char *path, lanes::Failures &failures) {
  using I = typename V::I;
  using Io = LaneIo<V, Bits>;
  const uint32_t mask = lanes::laneMask(Bits);
  auto sgn = [](uint32_t v) { return lanes::signedLane(v, Bits); };
  [[maybe_unused]] Runner<V, Bits, 1> one{path, failures};
  Runner<V, Bits, 2> two{path, failures};

  // GenericLaneOps: integer lanes.
  for (uint32_t a : lanes::edgeLanes(Bits)) {
    uint32_t out[Io::kLanes];
    Io::store(V::splat(a), out);
    for (uint32_t lane : out)
      if (lane != (a & mask)) {
        failures.add(path, "splat", Bits, " " + lanes::hexList({a}), lane, a & mask);
        break;
      }
  }
  {
    uint32_t out[Io::kLanes];
    Io::store(V::zero(), out);
    for (uint32_t lane : out)
      if (lane) {
        failures.add(path, "zero", Bits, "", lane, 0);
        break;
      }
  }
  auto exact = [](uint32_t got, uint32_t want) { return got == want; };
  // Every pair of edge lanes (a, b): STORE(EXPR) against WANT, compared
  // by SAME.
#define PAIRS(NAME, STORE, EXPR, WANT, SAME)                                   \
  two.run(                                                                     \
      NAME, pairs<Bits>(), [](I *v, uint32_t *out) { STORE(EXPR, out); },      \
      [&](const std::array<uint32_t, 2> &x) -> uint32_t {                      \
        uint32_t a = x[0], b = x[1];                                           \
        (void)a, (void)b;                                                      \
        return WANT;                                                           \
      },                                                                       \
      SAME)
#define BINARY(NAME, EXPR, WANT)                                               \
  PAIRS(NAME, Io::store, EXPR, uint32_t(WANT) & mask, exact)
#define BINARY_MASK(NAME, EXPR, WANT)                                          \
  PAIRS(NAME, Io::storeMask, EXPR, (WANT) ? 1u : 0u, exact)
  BINARY("add", V::add(v[0], v[1]), a + b);
  BINARY("sub", V::sub(v[0], v[1]), a - b);
  BINARY("mul", V::mul(v[0], v[1]), a * b);
  BINARY("min", V::min(v[0], v[1]), sgn(a) < sgn(b) ? a : b);
  BINARY("max", V::max(v[0], v[1]), sgn(a) > sgn(b) ? a : b);
  BINARY("minUnsigned", V::minUnsigned(v[0], v[1]), a < b ? a : b);
  BINARY("and (operator&)", I(v[0] & v[1]), a & b);
  BINARY("or (operator|)", I(v[0] | v[1]), a | b);
  BINARY("xor (operator^)", I(v[0] ^ v[1]), a ^ b);
  for (int n = 0; n < int(Bits); ++n) {
    uint32_t out[Io::kLanes], in[Io::kLanes];
    for (uint32_t a : lanes::edgeLanes(Bits)) {
      for (uint32_t &lane : in)
        lane = a;
      I v = Io::load(in);
      struct {
        const char *name;
        I got;
        uint32_t want;
      } shifted[] = {{"shr", V::shr(v, n), a >> n},
                     {"sra", V::sra(v, n), uint32_t(sgn(a) >> n) & mask},
                     {"shl", V::shl(v, n), (a << n) & mask}};
      for (const auto &s : shifted) {
        Io::store(s.got, out);
        if (out[0] != s.want)
          failures.add(path, s.name, Bits, " " + lanes::hexList({a, uint64_t(n)}),
                       out[0], s.want);
      }
    }
  }
  // The ISA's masks and selects.
  BINARY_MASK("eq", V::eq(v[0], v[1]), a == b);
  BINARY_MASK("gt", V::gt(v[0], v[1]), sgn(a) > sgn(b));
  BINARY("select", V::select(V::gt(v[0], v[1]), v[0], v[1]),
         sgn(a) > sgn(b) ? a : b);
  BINARY("keep", V::keep(V::gt(v[0], v[1]), v[0]), sgn(a) > sgn(b) ? a : 0);
  BINARY_MASK("both", V::both(V::gt(v[0], v[1]), V::gt(v[1], V::zero())),
              sgn(a) > sgn(b) && sgn(b) > 0);
  BINARY_MASK("either", V::either(V::gt(v[0], v[1]), V::gt(v[1], V::zero())),
              sgn(a) > sgn(b) || sgn(b) > 0);
  BINARY_MASK("butNot", V::butNot(V::gt(v[0], v[1]), V::gt(v[1], V::zero())),
              sgn(a) > sgn(b) && !(sgn(b) > 0));
  BINARY_MASK("notLanes", V::notLanes(V::gt(v[0], v[1])), !(sgn(a) > sgn(b)));
  BINARY_MASK("allLanes", V::allLanes(), true);
  if constexpr (NoneSet)
    BINARY_MASK("noneSet", V::noneSet(v[0], v[1]), (a & b) == 0);
  if constexpr (VariableShifts) {
    // Every amount below the width, the width and beyond: 0 from the width.
    for (bool left : {false, true})
      two.run(
          left ? "shlv" : "shrv", shifts<Bits>(Bits + 9),
          [left](I *v, uint32_t *out) {
            Io::store(left ? V::shlv(v[0], v[1]) : V::shrv(v[0], v[1]), out);
          },
          [&, left](const std::array<uint32_t, 2> &x) -> uint32_t {
            if (x[1] >= Bits)
              return 0;
            return (left ? x[0] << x[1] : x[0] >> x[1]) & mask;
          });
  }
  // any: whether some lane is set, one lane at a time and none.
  for (unsigned set = 0; set <= Io::kLanes; ++set) {
    uint32_t x[Io::kLanes] = {}, y[Io::kLanes] = {};
    if (set < Io::kLanes)
      x[set] = 1;
    if (V::any(V::gt(Io::load(x), Io::load(y))) != (set < Io::kLanes))
      failures.add(path, "any", Bits, " lane " + std::to_string(set),
                   !(set < Io::kLanes), set < Io::kLanes);
  }
  if constexpr (Bits == 32) {
    // bits: lane j's mask bit at bit j.
    std::vector<uint32_t> edges = lanes::edgeLanes(Bits);
    for (size_t start = 0; start < edges.size(); ++start) {
      uint32_t x[Io::kLanes], y[Io::kLanes];
      uint32_t want = 0;
      for (unsigned j = 0; j < Io::kLanes; ++j) {
        x[j] = edges[(start + j) % edges.size()];
        y[j] = edges[(start + 3 * j + 1) % edges.size()];
        want |= uint32_t(sgn(x[j]) > sgn(y[j])) << j;
      }
      uint32_t bits = V::bits(V::gt(Io::load(x), Io::load(y)));
      if (bits != want)
        failures.add(path, "bits", Bits, " " + lanes::hexList({x[0], y[0]}),
                     bits, want);
    }
    // fp32 lanes.
    auto f = lanes::asF32;
    auto bits = lanes::bitsOf;
    auto sameFloat = lanes::sameFloatLane;
#define BINARY_FLOAT(NAME, EXPR, WANT)                                         \
  PAIRS(NAME, Io::store, EXPR, WANT, sameFloat)
    BINARY_FLOAT("addF", V::addF(v[0], v[1]), bits(f(a) + f(b)));
    BINARY_FLOAT("subF", V::subF(v[0], v[1]), bits(f(a) - f(b)));
    BINARY_FLOAT("mulF", V::mulF(v[0], v[1]), bits(f(a) * f(b)));
    BINARY_FLOAT("fmaF", V::fmaF(v[0], v[1], v[0]),
                 bits(std::fma(f(a), f(b), f(a))));
    BINARY_FLOAT("truncF", V::truncF(v[0]), bits(std::trunc(f(a))));
    BINARY_FLOAT("toFloat", V::toFloat(v[0]), bits(float(int32_t(a))));
    // Exact, bit for bit: MINPS/MAXPS are MINSS/MAXSS per lane.
    BINARY("minF", V::minF(v[0], v[1]), birsim::core::minss(a, b));
    BINARY("maxF", V::maxF(v[0], v[1]), birsim::core::maxss(a, b));
    BINARY_MASK("isNaN", V::isNaN(v[0]), birsim::core::isNaNF32(a));
    // In range only (|x| < 2^31), as the contract says.
    std::vector<std::array<uint32_t, 1>> inRange;
    for (uint32_t a : lanes::edgeLanes(32))
      if (std::fabs(f(a)) < 2147483648.0f)
        inRange.push_back({a});
    one.run("truncateToInt", inRange,
            [](I *v, uint32_t *out) { Io::store(V::truncateToInt(v[0]), out); },
            [&](const std::array<uint32_t, 1> &x) {
              return uint32_t(int32_t(f(x[0])));
            });
    for (uint32_t a : lanes::edgeLanes(32)) {
      uint32_t out[Io::kLanes];
      Io::store(V::splatF(f(a)), out);
      if (!birsim::core::isNaNF32(a) && out[Io::kLanes - 1] != a)
        failures.add(path, "splatF", 32, " " + lanes::hexList({a}), out[0], a);
    }
#undef BINARY_FLOAT
  }
  if constexpr (Counters) {
    // count / countIfOne: counters from b's lanes, a mask from a > b, a bit
    // from a's lowest.
    two.run("count", pairs<32>(),
            [](I *v, uint32_t *out) {
              I lanesOf = v[1];
              V::count(lanesOf, V::gt(v[0], v[1]));
              Io::store(lanesOf, out);
            },
            [&](const std::array<uint32_t, 2> &x) {
              return x[1] + (sgn(x[0]) > sgn(x[1]));
            });
    two.run("countIfOne", pairs<32>(),
            [](I *v, uint32_t *out) {
              I lanesOf = v[1];
              V::countIfOne(lanesOf, V::gt(v[0], v[1]), v[0] & V::splat(1));
              Io::store(lanesOf, out);
            },
            [&](const std::array<uint32_t, 2> &x) {
              return x[1] + (sgn(x[0]) > sgn(x[1]) && (x[0] & 1));
            });
  }
#undef BINARY
#undef BINARY_MASK
#undef PAIRS
}

/// The generic operations of a path's vocabulary X.
template <class X> void checkVocabularyOps(const char *path,
                                           lanes::Failures &failures) {
  using V = typename X::template Lanes<32>;
  using I = typename V::I;
  constexpr unsigned kBytes = X::kVectorBytes, kLanes = kBytes / 4;
  std::vector<uint32_t> edges = lanes::edgeLanes(32);
  std::vector<uint32_t> a(kLanes), b(kLanes), want(kLanes), got(kLanes);
  auto fill = [&](size_t start, std::vector<uint32_t> &v, size_t stride) {
    for (size_t i = 0; i < v.size(); ++i)
      v[i] = edges[(start + i * stride) % edges.size()];
  };
  auto check = [&](const char *name, size_t start) {
    for (size_t i = 0; i < kLanes; ++i)
      if (got[i] != want[i]) {
        failures.add(path, name, 32,
                     " " + lanes::hexList({a[i], b[i], uint64_t(start)}), got[i],
                     want[i]);
        return false;
      }
    return true;
  };
  auto loadLanes = [&](const std::vector<uint32_t> &v) {
    return X::template load<4>(X::template whole<kLanes>(), (const char *)v.data());
  };
  auto storeLanes = [&](I v) {
    X::template store<4>((char *)got.data(), X::template whole<kLanes>(), v);
  };
  for (size_t start = 0; start < edges.size(); ++start) {
    fill(start, a, 1);
    fill(start * 7 + 3, b, 5);
    // load / store: a round trip.
    storeLanes(loadLanes(a));
    want = a;
    check("load/store", start);
    // loadWidened / storeNarrowed at 1 and 2 bytes: element i, zero-extended.
    std::vector<uint8_t> bytes(kBytes);
    for (size_t i = 0; i < bytes.size(); ++i)
      bytes[i] = uint8_t(a[i % kLanes] >> (8 * (i / kLanes)));
    storeLanes(X::template loadWidened<1>(X::template whole<kLanes>(),
                                          (const char *)bytes.data()));
    for (size_t i = 0; i < kLanes; ++i)
      want[i] = bytes[i];
    check("loadWidened<1>", start);
    storeLanes(X::template loadWidened<2>(X::template whole<kLanes>(),
                                          (const char *)bytes.data()));
    for (size_t i = 0; i < kLanes; ++i)
      want[i] = uint32_t(bytes[2 * i]) | uint32_t(bytes[2 * i + 1]) << 8;
    check("loadWidened<2>", start);
    for (unsigned width : {1u, 2u}) {
      std::vector<uint32_t> small(kLanes);
      for (size_t i = 0; i < kLanes; ++i)
        small[i] = a[i] & ((1u << (8 * width)) - 1);
      std::vector<uint8_t> out(kBytes, 0xEE);
      I v = loadLanes(small);
      if (width == 1)
        X::template storeNarrowed<1>((char *)out.data(),
                                     X::template whole<kLanes>(), v);
      else
        X::template storeNarrowed<2>((char *)out.data(),
                                     X::template whole<kLanes>(), v);
      for (size_t i = 0; i < kLanes; ++i) {
        got[i] = width == 1 ? out[i] : uint32_t(out[2 * i]) | out[2 * i + 1] << 8;
        want[i] = small[i];
      }
      check(width == 1 ? "storeNarrowed<1>" : "storeNarrowed<2>", start);
      for (size_t i = width * kLanes; i < kBytes; ++i)
        if (out[i] != 0xEE) {
          failures.add(path, "storeNarrowed (past its bytes)", 32, "", out[i], 0xEE);
          break;
        }
    }
    // integerOp on 32-bit and 64-bit lanes.
    using Op = birsim::core::MemoryReductionOp;
    auto integer = [&](auto op, auto width, const char *name) {
      storeLanes(X::template integerOp<decltype(width)::value, decltype(op)::value>(
          loadLanes(a), loadLanes(b)));
      for (size_t i = 0; i < kLanes; i += width / 4) {
        if (width == 4) {
          int32_t x = int32_t(a[i]), y = int32_t(b[i]);
          want[i] = uint32_t(op == Op::add   ? uint32_t(x) + uint32_t(y)
                             : op == Op::min ? std::min(x, y)
                                             : std::max(x, y));
        } else {
          int64_t x = int64_t(uint64_t(a[i]) | uint64_t(a[i + 1]) << 32),
                  y = int64_t(uint64_t(b[i]) | uint64_t(b[i + 1]) << 32);
          uint64_t r = op == Op::add   ? uint64_t(x) + uint64_t(y)
                       : op == Op::min ? uint64_t(std::min(x, y))
                                       : uint64_t(std::max(x, y));
          want[i] = uint32_t(r);
          want[i + 1] = uint32_t(r >> 32);
        }
      }
      check(name, start);
    };
    using C4 = std::integral_constant<unsigned, 4>;
    using C8 = std::integral_constant<unsigned, 8>;
    integer(std::integral_constant<Op, Op::add>{}, C4{}, "integerOp<4, add>");
    integer(std::integral_constant<Op, Op::min>{}, C4{}, "integerOp<4, min>");
    integer(std::integral_constant<Op, Op::max>{}, C4{}, "integerOp<4, max>");
    integer(std::integral_constant<Op, Op::add>{}, C8{}, "integerOp<8, add>");
    integer(std::integral_constant<Op, Op::min>{}, C8{}, "integerOp<8, min>");
    integer(std::integral_constant<Op, Op::max>{}, C8{}, "integerOp<8, max>");
    // 16-bit interleaves and the unsigned pack, per 128-bit quarter.
    auto half = [](const std::vector<uint32_t> &v, size_t i) {
      return uint16_t(v[i / 2] >> (16 * (i % 2)));
    };
    for (int which = 0; which < 3; ++which) {
      I x = loadLanes(a), y = loadLanes(b);
      storeLanes(which == 0   ? X::unpackLow16(x, y)
                 : which == 1 ? X::unpackHigh16(x, y)
                              : X::packUnsigned32(x, y));
      for (size_t q = 0; q < kBytes / 16; ++q)
        for (size_t j = 0; j < 4; ++j) {
          size_t lane = 4 * q + j;
          if (which < 2) { // words 8q + 4 which + j of a, then of b
            size_t w = 8 * q + 4 * which + j;
            want[lane] = half(a, w) | uint32_t(half(b, w)) << 16;
          } else { // a's dwords 4q..4q+3 saturated, then b's
            auto sat = [](uint32_t v) {
              return int32_t(v) < 0 ? 0u : std::min(v, 0xFFFFu);
            };
            const std::vector<uint32_t> &src = j < 2 ? a : b;
            size_t d = 4 * q + 2 * (j % 2);
            want[lane] = sat(src[d]) | sat(src[d + 1]) << 16;
          }
        }
      check(which == 0 ? "unpackLow16" : which == 1 ? "unpackHigh16"
                                                   : "packUnsigned32",
            start);
    }
    // storePackOrder16 of packUnsigned32(a, b): a's lanes, then b's.
    {
      std::vector<uint32_t> small[2] = {a, b};
      for (auto &lanes : small)
        for (uint32_t &lane : lanes)
          lane &= 0xFFFF;
      std::vector<uint16_t> out(kLanes * 2);
      X::storePackOrder16((char *)out.data(),
                          X::packUnsigned32(loadLanes(small[0]),
                                            loadLanes(small[1])));
      for (size_t i = 0; i < kLanes; ++i) {
        got[i] = out[i] | uint32_t(out[kLanes + i]) << 16;
        want[i] = small[0][i] | small[1][i] << 16;
      }
      check("storePackOrder16", start);
    }
    // fp16 sums, rounded to nearest even; any NaN for a NaN.
    storeLanes(X::f16Sums(loadLanes(a), loadLanes(b)));
    for (size_t i = 0; i < kLanes; ++i) {
      uint32_t lo = lanes::f16Sum(a[i] & 0xFFFF, b[i] & 0xFFFF),
               hi = lanes::f16Sum(a[i] >> 16, b[i] >> 16);
      want[i] = lo | hi << 16;
      auto isNaN16 = [](uint32_t h) { return (h & 0x7FFF) > 0x7C00; };
      for (int s : {0, 16})
        if (isNaN16(want[i] >> s & 0xFFFF) && isNaN16(got[i] >> s & 0xFFFF))
          got[i] = (got[i] & ~(0xFFFFu << s)) | (want[i] & (0xFFFFu << s));
    }
    check("f16Sums", start);
  }
}

#endif // BIRSIM_TEST_UNIT_CORE_KERNELS_LANECHECKS_H
