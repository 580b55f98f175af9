/* ws_entry: how warpscope calls a learner's file, in every build of it (ws_user.h for the emulator,
 * ws_user_gpu.h for nvcc): the front end appends ws_user_entry, which runs the --entry call. A value
 * the call returns is handed back, but the result is never it: the result is out[0] (in[0] with
 * --result in) when the call returns, read by own.c and own_gpu.cu. */
#ifndef WARPSCOPE_WS_ENTRY_H
#define WARPSCOPE_WS_ENTRY_H

/* the type of the entry's in, out and h_in: --type's, which the build defines (own.c), else float */
#ifndef WS_ENTRY_T
#define WS_ENTRY_T float
#endif

template <class T>
struct ws_is_void_t {
    enum { value = 0 };
};
template <>
struct ws_is_void_t<void> {
    enum { value = 1 };
};
template <class F>
void ws_call_entry(F f, float *result, int *has_result)
{
    if constexpr (ws_is_void_t<decltype(f())>::value) {
        f();
    } else {
        *result = (float)f();
        *has_result = 1;
    }
}

#endif
