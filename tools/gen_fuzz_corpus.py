#!/usr/bin/env python3
"""Writes seed inputs for fuzz/fuzz_point_decode.c into fuzz/corpus/point_decode/.
Each seed is a mode byte (see the harness) followed by a valid or
near-valid encoding built from the BLS12-381 generators."""
import os

p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
G1 = (0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb,
      0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1)
G2 = ((0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8,
       0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e),
      (0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801,
       0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be))
R = 1 << 384


def be(v):
    return v.to_bytes(48, "big")


def lem(v):
    return (v * R % p).to_bytes(48, "little")


seeds = {
    "g1_compressed": bytes([0x00]) + bytes([be(G1[0])[0] | 0x80]) + be(G1[0])[1:],
    "g1_compressed_inf": bytes([0x10, 0xc0]) + bytes(47),
    "g1_uncompressed": bytes([0x11]) + be(G1[0]) + be(G1[1]),
    "g1_uncompressed_inf": bytes([0x01, 0x40]) + bytes(95),
    "g2_compressed": bytes([0x12]) + bytes([be(G2[0][1])[0] | 0x80]) + be(G2[0][1])[1:] + be(G2[0][0]),
    "g2_uncompressed": bytes([0x03]) + be(G2[0][1]) + be(G2[0][0]) + be(G2[1][1]) + be(G2[1][0]),
    "g1_lem": bytes([0x14]) + lem(G1[0]) + lem(G1[1]),
    "g1_lem_inf": bytes([0x04]) + bytes(96),
    "g2_lem": bytes([0x15]) + lem(G2[0][0]) + lem(G2[0][1]) + lem(G2[1][0]) + lem(G2[1][1]),
    "fp_dec": bytes([0x06]) + str(p - 1).encode(),
    "fr_dec": bytes([0x07]) + b"52435875175126190479447740508185965837690552500527637822603658699938581184512",
    "g1_dec": bytes([0x18]) + ("%d,%d,1" % G1).encode(),
    "g1_dec_inf": bytes([0x08]) + b"0,1,0",
    "g2_dec": bytes([0x19]) + ("%d,%d,%d,%d,1,0" % (G2[0][0], G2[0][1], G2[1][0], G2[1][1])).encode(),
}
out = os.path.join(os.path.dirname(__file__), "..", "fuzz", "corpus", "point_decode")
os.makedirs(out, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
print("wrote %d seeds to %s" % (len(seeds), os.path.normpath(out)))
