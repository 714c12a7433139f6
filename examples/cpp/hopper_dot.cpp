// One output of Hopper's mma.m16n8k16 (fp16 inputs, fp32 accumulator), with mmaemu's reference model:
// first small integers, whose sum every arithmetic gets exactly (1*1 + 2*1 + ... + 16*1 = 136), then
// 1 + 2^-24 + ... where the tensor core's truncated alignment and IEEE fp32 part ways.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <mmaemu/reference/model.hpp>

namespace ref = mmaemu::ref;

uint32_t fp32_bits(float f) { uint32_t u; std::memcpy(&u, &f, sizeof u); return u; }
uint32_t fp16_bits(int small) {  // an exact small integer (|small| < 2048) as fp16
  if (small == 0) return 0;
  int e = 0;
  while ((small >> (e + 1)) != 0) ++e;
  return static_cast<uint32_t>((e + 15) << 10 | ((small << (10 - e)) & 0x3FF));
}

int main() {
  const ref::InstructionModel& m = ref::lookup(*ref::parse_arch("sm90"), "mma.m16n8k16.f32.f16.f16.f32");
  uint32_t a[16], b[16];
  for (int k = 0; k < 16; ++k) a[k] = fp16_bits(k + 1), b[k] = fp16_bits(1);
  const uint32_t exact = ref::dot(m, a, b, fp32_bits(0.0f));
  std::printf("small integers: %08x (136.0f is %08x)\n", exact, fp32_bits(136.0f));
  // c = 1, products 2^-12 * 2^-12 = 2^-24 sixteen times: IEEE fp32 adds each into 1 and loses it (ties to
  // even); the tensor core sums the block's products with c before one truncation and keeps them.
  for (int k = 0; k < 16; ++k) a[k] = b[k] = 0x0C00;  // 2^-12 in fp16
  const uint32_t hopper = ref::dot(m, a, b, fp32_bits(1.0f));
  float ieee = 1.0f;
  for (int k = 0; k < 16; ++k) ieee += 0x1p-24f;
  std::printf("1 + 16 * 2^-24: tensor core %08x, sequential IEEE fp32 %08x\n", hopper, fp32_bits(ieee));
  return exact == fp32_bits(136.0f) ? 0 : 1;
}
