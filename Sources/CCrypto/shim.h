#ifndef KEYCAT_CCRYPTO_SHIM_H
#define KEYCAT_CCRYPTO_SHIM_H

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#endif
