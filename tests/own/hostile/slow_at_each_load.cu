// Hostile: a constructor that takes six seconds at each load of the file. Under --schedule
// adversarial a load per order would be fifteen loads, each within its own wall clock, a minute
// and a half in all: the search loads it once for every order, and where it cannot, one deadline
// for the whole check stops it in about a minute.
#include <unistd.h>
__global__ void k(const float *in, float *out, unsigned n)
{
    if (threadIdx.x == 0) {
        float s = 0;
        for (unsigned i = 0; i < n; i++) s += in[i];
        out[0] = s;
    }
}
void run(const float *in, float *out, unsigned n) { k<<<1, 32>>>(in, out, n); }
struct ws_slow {
    ws_slow() { sleep(6); }
} ws_slow_now;
