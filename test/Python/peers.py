"""What the peer tests (test_ml_dtypes.py, test_torch_peers.py) share: the
float32 patterns they convert, and docs/Semantics.md section 4's rules
where birsim and a peer that rounds the same way differ (NaN codes and the
cast engine's saturation), applied to the peer's codes to give birsim's."""
import numpy as np

# The 8- and 16-bit float types birsim shares with ml_dtypes / PyTorch, by
# birsim's name: (exponent bits, mantissa bits, has Inf, largest code).
FORMATS = {
    "bfloat16": (8, 7, True, 0x7F7F),
    "float16": (5, 10, True, 0x7BFF),
    "float8_e3m4": (3, 4, True, 0x6F),
    "float8_e4m3": (4, 3, True, 0x77),
    "float8_e5m2": (5, 2, True, 0x7B),
    "float8_e4m3fn": (4, 3, False, 0x7E),
}
FP8 = [t for t in FORMATS if t.startswith("float8")]


def float32_patterns():
    """2^24 float32 bit patterns over every exponent: both signs, all 256
    exponents, the top 15 mantissa bits in all 2^15 ways; the low 8 bits
    zero for + (every tie of each narrower format) and hashed for - (its
    sticky bits)."""
    m = np.arange(1 << 15, dtype=np.uint32)
    low = ((m * np.uint32(0x9E37)) >> 7) & 0xFF
    e = np.arange(256, dtype=np.uint32)[:, None] << 23
    plus = e | (m << 8)
    minus = np.uint32(1 << 31) | e | (m << 8) | low
    return np.concatenate([plus.ravel(), minus.ravel()]).view(np.float32)


def width(name):
    return 1 if name.startswith("float8") else 2


def storage(name):
    return np.dtype(np.uint8 if width(name) == 1 else np.uint16)


def sign_bit(name):
    return 1 << (8 * width(name) - 1)


def classify(name, codes):
    """(is NaN, is Inf, the mantissa) of a format's codes: e4m3fn's only NaN
    is S.1111.111 and it has no Inf."""
    _, mbits, has_inf, _ = FORMATS[name]
    c = codes.astype(np.uint32)
    magnitude = c & (sign_bit(name) - 1)
    mantissa = c & ((1 << mbits) - 1)
    if not has_inf:
        return magnitude == sign_bit(name) - 1, np.zeros(c.shape, bool), mantissa
    exp_mask = (sign_bit(name) - 1) & ~((1 << mbits) - 1)
    top = (c & exp_mask) == exp_mask
    return top & (mantissa != 0), top & (mantissa == 0), mantissa


def nan_code(name, negative):
    """Section 4: the NaN a narrowing from fp32 gives. bfloat16 0x7FC0 and
    the fp8 formats' codes drop the sign; float16 0x7E00 keeps it."""
    codes = {"bfloat16": 0x7FC0, "float8_e3m4": 0x78, "float8_e4m3": 0x7C,
             "float8_e5m2": 0x7E, "float8_e4m3fn": 0x7F}
    if name == "float16":
        return np.where(negative, 0xFE00, 0x7E00)
    return np.full(np.shape(negative), codes[name])


def overflows(name, x):
    """Whether float32 values `x` overflow the format when rounded to
    nearest even: beyond its largest value by more than half an ulp, or by
    exactly half when the largest code's mantissa is odd."""
    ebits, mbits, _, largest = FORMATS[name]
    bias = (1 << (ebits - 1)) - 1
    exponent, mantissa = largest >> mbits, largest & ((1 << mbits) - 1)
    half_ulp = 2.0 ** (exponent - bias - mbits - 1)
    bound = (1 + mantissa / (1 << mbits)) * 2.0 ** (exponent - bias) + half_ulp
    with np.errstate(invalid="ignore"):  # signalling NaNs
        magnitude = np.abs(x.astype(np.float64))
    return ~np.isnan(x) & ((magnitude > bound) |
                           ((magnitude == bound) & bool(mantissa & 1)))


def narrowed(name, x, peer_codes, saturate):
    """birsim's codes for float32 values `x`, from a peer's round-to-nearest-
    even codes `peer_codes` (the same rounding): section 4's NaN code for a
    NaN, and for an overflow the signed largest finite value with the FP8
    config's saturate, else the signed Inf (e4m3fn: NaN 0x7F). Returns the
    codes and how many differ from the peer's, by rule."""
    _, mbits, has_inf, largest = FORMATS[name]
    sb = sign_bit(name)
    peer = peer_codes.astype(np.uint32)
    negative = np.signbit(x)
    nan_in, over = np.isnan(x), overflows(name, x)
    sign = np.where(negative, sb, 0).astype(np.uint32)
    if saturate:
        over_code = sign | largest
    elif has_inf:
        over_code = sign | ((sb - 1) & ~((1 << mbits) - 1))
    else:
        over_code = np.full(x.shape, sb - 1, np.uint32)
    want = np.where(over, over_code, peer)
    want[nan_in] = nan_code(name, negative[nan_in])
    differ = want != peer
    counts = {"nan_code": int(np.count_nonzero(differ & nan_in)),
              "overflow": int(np.count_nonzero(differ & over))}
    return want.astype(storage(name)), counts


def widened(name, codes, peer_bits):
    """birsim's float32 bits for `codes` from a peer's: equal but for NaN,
    which section 4 keeps with its sign and its payload moved to the top
    of the mantissa, not quieted. Returns the bits and how many differ."""
    mbits = FORMATS[name][1]
    is_nan, _, payload = classify(name, codes)
    want = peer_bits.astype(np.uint32).copy()
    sign = np.where(codes.astype(np.uint32) & sign_bit(name),
                    np.uint32(1 << 31), np.uint32(0))
    want[is_nan] = (sign | 0x7F800000 | (payload << (23 - mbits)))[is_nan]
    return want, int(np.count_nonzero(want != peer_bits))
