// SPDX-License-Identifier: Apache-2.0
// The `half` crate's own conversions behind C symbols, word in, word out: f16::from_f32 and
// bf16::from_f32 (round to nearest even), f16::to_f32 and bf16::to_f32 (exact).
use half::{bf16, f16};

#[no_mangle]
pub extern "C" fn ninfer_half_f32_to_f16(x: u32) -> u16 {
    f16::from_f32(f32::from_bits(x)).to_bits()
}

#[no_mangle]
pub extern "C" fn ninfer_half_f16_to_f32(h: u16) -> u32 {
    f16::from_bits(h).to_f32().to_bits()
}

#[no_mangle]
pub extern "C" fn ninfer_half_f32_to_bf16(x: u32) -> u16 {
    bf16::from_f32(f32::from_bits(x)).to_bits()
}

#[no_mangle]
pub extern "C" fn ninfer_half_bf16_to_f32(h: u16) -> u32 {
    bf16::from_bits(h).to_f32().to_bits()
}
