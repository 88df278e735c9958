// SHA-256 (FIPS 180-4) with two compression functions: the x86 SHA extensions when the CPU has them,
// and portable C everywhere else. Only the compression of whole 64-byte blocks differs between them.
#include "csha256.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CSHA256_X86 1
#endif

static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotate_right(uint32_t value, unsigned count) {
    return (value >> count) | (value << (32 - count));
}

static inline uint32_t load_big_endian(const uint8_t *bytes) {
    return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) | bytes[3];
}

static void compress_portable(uint32_t state[8], const uint8_t *blocks, size_t block_count) {
    uint32_t schedule[64];
    while (block_count-- > 0) {
        for (int i = 0; i < 16; i++) {
            schedule[i] = load_big_endian(blocks + 4 * i);
        }
        for (int i = 16; i < 64; i++) {
            uint32_t s0 = rotate_right(schedule[i - 15], 7) ^ rotate_right(schedule[i - 15], 18) ^ (schedule[i - 15] >> 3);
            uint32_t s1 = rotate_right(schedule[i - 2], 17) ^ rotate_right(schedule[i - 2], 19) ^ (schedule[i - 2] >> 10);
            schedule[i] = schedule[i - 16] + s0 + schedule[i - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int i = 0; i < 64; i++) {
            uint32_t sum1 = rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25);
            uint32_t choose = (e & f) ^ (~e & g);
            uint32_t t1 = h + sum1 + choose + round_constants[i] + schedule[i];
            uint32_t sum0 = rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22);
            uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
            uint32_t t2 = sum0 + majority;
            h = g; g = f; f = e; e = d + t1;
            d = c; c = b; b = a; a = t1 + t2;
        }
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
        blocks += 64;
    }
}

#ifdef CSHA256_X86
// The SHA extensions keep the eight words in two registers, ABEF and CDGH (highest lane first), and
// run two rounds per sha256rnds2. The message schedule is four registers of four words each, extended
// with sha256msg1/sha256msg2 as the rounds proceed.
__attribute__((target("sha,sse4.1,ssse3")))
static void compress_hardware(uint32_t state[8], const uint8_t *blocks, size_t block_count) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);

    __m128i abcd = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i efgh = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i badc = _mm_shuffle_epi32(abcd, 0xB1);
    __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1B);
    __m128i abef = _mm_alignr_epi8(badc, hgfe, 8);
    __m128i cdgh = _mm_blend_epi16(hgfe, badc, 0xF0);

    while (block_count-- > 0) {
        const __m128i saved_abef = abef;
        const __m128i saved_cdgh = cdgh;
        __m128i words[4];
        for (int i = 0; i < 4; i++) {
            words[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 16 * i)), byte_swap);
        }
#pragma clang loop unroll(full)
        for (int group = 0; group < 16; group++) {
            if (group >= 4) {
                // words[group % 4] holds W[4(group-4)...]; replace it with W[4 group...].
                __m128i oldest = words[group & 3];
                __m128i older = words[(group + 1) & 3];
                __m128i newer = words[(group + 2) & 3];
                __m128i newest = words[(group + 3) & 3];
                __m128i partial = _mm_add_epi32(_mm_sha256msg1_epu32(oldest, older), _mm_alignr_epi8(newest, newer, 4));
                words[group & 3] = _mm_sha256msg2_epu32(partial, newest);
            }
            __m128i message = _mm_add_epi32(words[group & 3],
                                            _mm_loadu_si128((const __m128i *)&round_constants[4 * group]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(message, 0x0E));
        }
        abef = _mm_add_epi32(abef, saved_abef);
        cdgh = _mm_add_epi32(cdgh, saved_cdgh);
        blocks += 64;
    }

    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    abcd = _mm_blend_epi16(feba, dchg, 0xF0);
    efgh = _mm_alignr_epi8(dchg, feba, 8);
    _mm_storeu_si128((__m128i *)&state[0], abcd);
    _mm_storeu_si128((__m128i *)&state[4], efgh);
}
#endif

int csha256_uses_hardware(void) {
#ifdef CSHA256_X86
    return __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1");
#else
    return 0;
#endif
}

static void compress(const csha256_context *context, uint32_t state[8], const uint8_t *blocks, size_t block_count) {
#ifdef CSHA256_X86
    if (!context->portable && csha256_uses_hardware()) {
        compress_hardware(state, blocks, block_count);
        return;
    }
#endif
    compress_portable(state, blocks, block_count);
}

void csha256_init(csha256_context *context) {
    static const uint32_t initial[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };
    memcpy(context->state, initial, sizeof initial);
    context->length = 0;
    context->pending_count = 0;
    context->portable = 0;
}

void csha256_init_portable(csha256_context *context) {
    csha256_init(context);
    context->portable = 1;
}

void csha256_update(csha256_context *context, const void *bytes, size_t count) {
    const uint8_t *input = bytes;
    context->length += count;
    if (context->pending_count > 0) {
        size_t room = 64 - context->pending_count;
        size_t taken = count < room ? count : room;
        memcpy(context->pending + context->pending_count, input, taken);
        context->pending_count += (uint32_t)taken;
        input += taken;
        count -= taken;
        if (context->pending_count < 64) {
            return;
        }
        compress(context, context->state, context->pending, 1);
        context->pending_count = 0;
    }
    size_t whole_blocks = count / 64;
    if (whole_blocks > 0) {
        compress(context, context->state, input, whole_blocks);
        input += whole_blocks * 64;
        count -= whole_blocks * 64;
    }
    if (count > 0) {
        memcpy(context->pending, input, count);
        context->pending_count = (uint32_t)count;
    }
}

void csha256_final(csha256_context *context, uint8_t digest[32]) {
    uint64_t bit_length = context->length * 8;
    uint8_t padding[128] = {0x80};
    size_t padding_count = (context->pending_count < 56 ? 56 : 120) - context->pending_count;
    for (int i = 0; i < 8; i++) {
        padding[padding_count + i] = (uint8_t)(bit_length >> (56 - 8 * i));
    }
    uint64_t length = context->length;
    csha256_update(context, padding, padding_count + 8);
    context->length = length;
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(context->state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(context->state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(context->state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)context->state[i];
    }
}
