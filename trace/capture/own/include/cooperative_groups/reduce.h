/* cooperative_groups/reduce.h: cg::reduce and its operators are in warpscope's cooperative_groups.h
 * beside this folder; this file lets the #include stand as written. */
#include "../cooperative_groups.h"
