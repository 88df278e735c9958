/*
 * shim.h — the part of OpenSSL 3's libcrypto that FileTransfer uses: SHA-256 through the EVP digest
 * interface (EVP_MD_fetch, EVP_DigestInit_ex2, EVP_DigestUpdate, EVP_DigestFinal_ex, EVP_MD_CTX_copy_ex).
 * libcrypto picks the fastest compression function for the CPU (SHA extensions, AVX2, ...) itself.
 * Found with pkg-config `libcrypto`; Debian's package is libssl-dev.
 */
#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H

#include <openssl/evp.h>

#endif /* CLIBCRYPTO_SHIM_H */
