/* cuda.h: warpscope provides what a learner's file uses of it (trace/capture/own/ws_user.h); this
 * file only lets the #include stand as written. */
