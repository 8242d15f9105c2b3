// Classifies the bytes of a playlist 64 at a time, for the line reader's runs of plain lines.
//
// Swift's SIMD types compare element by element here (no vector code is generated for `.==` on
// SIMD16<UInt8>), so the one loop that touches every byte of a playlist is written with SSE2 intrinsics,
// which every x86-64 processor has. The functions are `static inline`: Swift compiles them into the
// calling module and inlines them, so a block of 64 bytes costs about ninety instructions (callgrind) and
// no call. Other processors take the portable loop, which gives the same masks.
#ifndef CLINESCAN_H
#define CLINESCAN_H

#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// One bit per byte of a block, bit i for byte i.
typedef struct {
    /// LF.
    uint64_t newlines;
    /// CR.
    uint64_t returns;
    /// `{`, which may start a `{$variable}` reference.
    uint64_t braces;
    /// Anything but printable ASCII: below 0x20 (LF and CR included) or 0x7F and above.
    uint64_t attention;
} line_scan_masks;

/// The masks of `count` bytes (at most 64); bits past `count` are clear.
static inline line_scan_masks line_scan_partial(const uint8_t *bytes, size_t count) {
    line_scan_masks masks = {0, 0, 0, 0};
    for (size_t index = 0; index < count && index < 64; index++) {
        uint8_t byte = bytes[index];
        uint64_t bit = (uint64_t)1 << index;
        if (byte == 0x0A) masks.newlines |= bit;
        if (byte == 0x0D) masks.returns |= bit;
        if (byte == 0x7B) masks.braces |= bit;
        if (byte < 0x20 || byte >= 0x7F) masks.attention |= bit;
    }
    return masks;
}

/// The masks of the 64 bytes at `bytes`.
static inline line_scan_masks line_scan_block(const uint8_t *bytes) {
#if defined(__SSE2__)
    line_scan_masks masks = {0, 0, 0, 0};
    const __m128i newline = _mm_set1_epi8(0x0A), carriageReturn = _mm_set1_epi8(0x0D);
    const __m128i brace = _mm_set1_epi8(0x7B), space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F);
    for (int part = 0; part < 4; part++) {
        __m128i vector = _mm_loadu_si128((const __m128i *)(bytes + 16 * part));
        int shift = 16 * part;
        masks.newlines |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(vector, newline)) << shift;
        masks.returns |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(vector, carriageReturn)) << shift;
        masks.braces |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(vector, brace)) << shift;
        // Signed: bytes of 0x80 and above are negative, so "less than 0x20" takes them too.
        __m128i outside = _mm_or_si128(_mm_cmpgt_epi8(space, vector), _mm_cmpeq_epi8(vector, del));
        masks.attention |= (uint64_t)(uint16_t)_mm_movemask_epi8(outside) << shift;
    }
    return masks;
#else
    return line_scan_partial(bytes, 64);
#endif
}

#endif
