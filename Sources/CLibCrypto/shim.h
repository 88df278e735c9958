/*
 * shim.h — the part of OpenSSL 3's libcrypto that FileTransfer uses: SHA-256 through the EVP digest
 * interface (EVP_MD_fetch, EVP_DigestInit_ex2, EVP_DigestUpdate, EVP_DigestFinal_ex, EVP_MD_CTX_copy_ex,
 * EVP_MD_CTX_new, EVP_MD_CTX_free). libcrypto picks the fastest compression function for the CPU (SHA
 * extensions, AVX2, ...) itself.
 *
 * Nothing here is linked: FileTransfer opens libcrypto with dlopen at the first hash (LibCrypto.swift), so a
 * program that never hashes (the dashboard) does not map it at exec. The headers give the types, and each
 * function's pointer type below is taken from its declaration, so a call through it is checked exactly as a
 * direct call would be. Debian's headers are libssl-dev; the library itself is libssl3 (libcrypto.so.3).
 */
#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H

#include <openssl/evp.h>
#include <openssl/opensslv.h>

typedef __typeof__(&EVP_MD_fetch) CLibCryptoMDFetch;
typedef __typeof__(&EVP_MD_CTX_new) CLibCryptoMDContextNew;
typedef __typeof__(&EVP_MD_CTX_free) CLibCryptoMDContextFree;
typedef __typeof__(&EVP_MD_CTX_copy_ex) CLibCryptoMDContextCopy;
typedef __typeof__(&EVP_DigestInit_ex2) CLibCryptoDigestInit;
typedef __typeof__(&EVP_DigestUpdate) CLibCryptoDigestUpdate;
typedef __typeof__(&EVP_DigestFinal_ex) CLibCryptoDigestFinal;

#endif /* CLIBCRYPTO_SHIM_H */
