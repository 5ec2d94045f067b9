// SPDX-License-Identifier: Apache-2.0
// SHA-256 of bytes and of a file through OpenSSL's EVP interface (the digests of MANIFEST.sha256).
#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>
#include <span>

#include "ninfer/abi/bytes.hpp"
#include "ninfer/vectors/vectors.hpp"

namespace ninfer::vectors {

namespace {

using Ctx = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

Ctx start(const std::string &what) {
    Ctx ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
        throw VectorError(what + ": OpenSSL could not start a SHA-256 digest");
    return ctx;
}

std::string finish(Ctx &ctx, const std::string &what) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
    unsigned int len = 0;
    if (EVP_DigestFinal_ex(ctx.get(), md.data(), &len) != 1) throw VectorError(what + ": OpenSSL SHA-256 final failed");
    return abi::hex_bytes(std::span<const std::uint8_t>(md.data(), len));
}

}  // namespace

std::string sha256_bytes(std::string_view bytes) {
    auto ctx = start("SHA-256");
    if (EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1) throw VectorError("OpenSSL SHA-256 update failed");
    return finish(ctx, "SHA-256");
}

std::string sha256_file(const std::filesystem::path &p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw VectorError(p.string() + ": cannot open for reading (expected a readable file)");
    auto ctx = start(p.string());
    std::array<char, 1 << 16> buf{};
    while (in) {
        in.read(buf.data(), buf.size());
        const auto got = in.gcount();
        if (got > 0 && EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<std::size_t>(got)) != 1)
            throw VectorError(p.string() + ": OpenSSL SHA-256 update failed");
    }
    if (in.bad()) throw VectorError(p.string() + ": read error");
    return finish(ctx, p.string());
}

}  // namespace ninfer::vectors
