#pragma once

#define LLAMA_VERSION "0.6.0-dev"
#define LLAMA_COMMIT  "unknown"
