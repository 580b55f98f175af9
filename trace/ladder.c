/* ladder: the version table. Adding a version is one row here and one file in kernels/. */
#include "trace/ladder.h"
#include "trace/words.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Why hardware may legitimately differ from the emulator for a version (verify prints it). */
static const char hw_last_block[] =
    "which block draws the last ticket, and so adds up the partials, is decided by the order in which "
    "blocks finish on the hardware; the emulator runs blocks in order, so its last block is always the "
    "highest-numbered one. The result and every block's own reduction are compared as usual";
static const char hw_register_copy[] =
    "without volatile the compiler keeps the tail's words in registers (one store at the end); the traced "
    "GPU build records every access where the source says, so its trace shows the volatile order, while "
    "the emulator models the register copy and the plain build (bench) computes the wrong sum";
static const char hw_races[] =
    "it races on purpose: whether a thread reads data[idx + stride] before or after its owner adds into it "
    "depends on when the blocks and warps run, so the hardware and the emulator may each give another sum "
    "(warpscope hazards names the race)";
static const char hw_warp_sync[] =
    "the last warp's steps rely on the textbook's implicit warp lockstep (volatile, no __syncwarp); under "
    "independent thread scheduling (Volta and later) lanes may run them apart, so the hardware owes no "
    "particular order or grouping";

const ladder_version ladder_versions[] = {
    {"naive", "Global memory, one launch per stride",
     "Adds pairs in place in global memory; log2(n) launches, no shared memory.",
     "kernels/naive.cu", "naive_reduction_kernel,global", LADDER_IN_PLACE, 32, 1024, 1, 1, 0, 256, 'N', NULL, "全局内存，每个步长启动一次",
     "在全局内存中原地两两相加；log2(n) 次启动，不用共享内存。", 0},
    {"naive-race", "The seed's in-place global kernel (races)",
     "Every thread adds data[idx + stride] into data[idx] in place: threads read what others write, unordered.",
     "kernels/naive_race.cu", "naive_race,seed-naive", LADDER_IN_PLACE, 32, 1024, 1, 1, 0, 256, 0, hw_races,
     "种子中的原地全局内核（有竞争）",
     "每个线程原地把 data[idx + stride] 加到 data[idx]：线程读取别的线程正在写的元素，没有任何同步。", 1},
    {"v0", "Interleaved addressing, divergent branch",
     "tid % (2*s) == 0 picks scattered threads: every warp diverges.",
     "kernels/v0.cu", "reduce0,reduce_v0,reduceNeighbored,interleaved-divergent", LADDER_TREE, 32, 1024, 1, 1, 0, 256, '0', NULL, "交错寻址，分支发散",
     "tid % (2*s) == 0 选出分散的线程：每个线程束都发生线程束分化。", 0},
    {"v1", "Interleaved addressing, strided index",
     "index = 2*s*tid: whole warps work or idle, but lanes 2s words apart collide in banks.",
     "kernels/v1.cu", "reduce1,reduce_v1,reduceNeighboredLess,strided-index", LADDER_TREE, 32, 1024, 1, 1, 0, 256, '1', NULL, "交错寻址，跨步索引",
     "index = 2*s*tid：整个线程束要么工作要么空闲，但相隔 2s 个字的 lane 发生 bank 冲突。", 0},
    {"v2", "Sequential addressing",
     "Stride halves from blockDim/2: consecutive lanes, consecutive banks, no conflicts; half the threads idle at once.",
     "kernels/v2.cu", "reduce2,reduce_v2,reduceInterleaved,sequential", LADDER_TREE, 32, 1024, 1, 1, 0, 256, '2', NULL, "顺序寻址",
     "步长从 blockDim/2 开始减半：相邻 lane 访问相邻 bank，没有冲突；但一开始就有一半线程空闲。", 0},
    {"v3", "First add during load",
     "Each thread adds two inputs while loading: half the blocks, no idle first step.",
     "kernels/v3.cu", "reduce3,reduceUnroll2,reduceUnrolling2,first-add", LADDER_TREE, 32, 1024, 2, 2, 0, 256, '3', NULL, "加载时先做一次加法",
     "每个线程加载时先把两个输入相加：线程块减半，第一步不再空闲。", 0},
    {"v4", "Unrolled last warp (volatile)",
     "The last 6 steps run in one warp with no barrier: the textbook volatile form, unsafe since Volta.",
     "kernels/v4.cu", "reduce4,reduceUnrollWarp8,reduceUnrollingWarp8,unroll-last-warp", LADDER_TREE, 64, 1024, 2, 2, 0, 256, '4', hw_warp_sync, "展开最后一个线程束（volatile）",
     "最后 6 步在一个线程束内完成，不用屏障：教科书的 volatile 写法，Volta 之后不安全。", 0},
    {"v4s", "Unrolled last warp (__syncwarp)",
     "The last warp's steps separated by __syncwarp: safe under independent thread scheduling.",
     "kernels/v4s.cu", "reduce4s,syncwarp", LADDER_TREE, 64, 1024, 2, 2, 0, 256, '9', NULL, "展开最后一个线程束（__syncwarp）",
     "最后一个线程束的各步之间用 __syncwarp 分隔：在独立线程调度下也安全。", 0},
    {"v4-novolatile", "Unrolled last warp without volatile (breaks)",
     "v4 with a plain float *: the compiler keeps the words in registers, so lanes add stale partners.",
     "kernels/v4_novolatile.cu", "v4_novolatile,reduce4nv,no-volatile", LADDER_TREE, 64, 1024, 2, 2, 0, 256, 0, hw_register_copy,
     "展开最后一个线程束（去掉 volatile，会出错）",
     "v4 改用普通 float *：编译器把各个字留在寄存器里，各 lane 加到的是过时的值。", 1},
    {"v5", "Complete unroll (template block size)",
     "blockSize is a template parameter: the whole tree is unrolled at compile time.",
     "kernels/v5.cu", "reduce5,reduceCompleteUnroll,reduceCompleteUnrollWarp8,complete-unroll", LADDER_TREE, 32, 1024, 2, 2, 0, 256, '5', hw_warp_sync, "完全展开（模板参数 blockSize）",
     "blockSize 是模板参数：整棵归约树在编译时完全展开。", 0},
    {"v6", "Many elements per thread (grid-stride loop)",
     "Each thread sums many inputs in a register before the tree: the cost per element falls.",
     "kernels/v6.cu", "reduce6,reduceUnrolling8,grid-stride,multiple-adds", LADDER_TREE, 32, 1024, 8, 2, 1, 256, '6', hw_warp_sync, "每个线程处理多个元素（网格跨步循环）",
     "每个线程先在寄存器里累加许多输入再进入归约树：每个元素的开销下降。", 0},
    {"v7", "Warp shuffles, float4 loads",
     "__shfl_down_sync reduces each warp in registers; 16-byte loads; one barrier per block.",
     "kernels/v7.cu", "reduce7,shuffle,shfl", LADDER_TREE, 32, 1024, 8, 1, 1, 256, '7', NULL, "线程束洗牌，float4 加载",
     "__shfl_down_sync 在寄存器中完成线程束内归约；16 字节加载；每个线程块只有一个屏障。", 0},
    {"v8", "Single pass (last block finishes)",
     "One launch: blocks read whole tiles, publish partials, and the last to take a ticket sums them.",
     "kernels/v8.cu", "reduce8,threadFenceReduction,single-pass", LADDER_SINGLE_PASS, 32, 1024, 16, 1, 1, 1024, '8', hw_last_block, "单遍归约（最后一个线程块收尾）",
     "只启动一次：各线程块读取整块数据、发布部分和，最后取到票的线程块把它们加起来。", 0},
};
const size_t ladder_count = sizeof ladder_versions / sizeof ladder_versions[0];

const ladder_version *ladder_find(const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < ladder_count; i++) {
        const ladder_version *v = &ladder_versions[i];
        if (strcasecmp(v->id, name) == 0) return v;
        for (const char *a = v->aliases; *a;) {
            const char *comma = strchr(a, ',');
            size_t alen = comma ? (size_t)(comma - a) : strlen(a);
            if (alen == len && strncasecmp(a, name, len) == 0) return v;
            a += alen + (comma ? 1 : 0);
        }
    }
    return NULL;
}

void ladder_unknown(const char *name, char *err, size_t errlen)
{
    const char *ids[64];
    size_t n = 0;
    for (size_t i = 0; i < ladder_count && n < sizeof ids / sizeof *ids; i++) ids[n++] = ladder_versions[i].id;
    char near[160];
    if (words_suggest(name, ids, n, near, sizeof near))
        snprintf(err, errlen, "unknown version \"%s\"; did you mean %s? (warpscope list shows them)", name, near);
    else
        snprintf(err, errlen, "unknown version \"%s\" (warpscope list shows them)", name);
}

int ladder_check_block(const ladder_version *v, unsigned block, char *err, size_t errlen)
{
    if (block >= v->min_block && block <= v->max_block && (block & (block - 1)) == 0) return 0;
    snprintf(err, errlen, "version %s runs blocks of %u to %u threads, a power of two; got %u", v->id, v->min_block,
             v->max_block, block);
    return -1;
}

int ladder_check_ept(const ladder_version *v, unsigned ept, char *err, size_t errlen)
{
    if (!v->ept_tunable) {
        if (ept == v->ept_default) return 0;
        snprintf(err, errlen, "version %s reduces %u element%s per thread; --ept applies to v6, v7 and v8", v->id,
                 v->ept_default, v->ept_default == 1 ? "" : "s");
        return -1;
    }
    if (ept >= v->ept_multiple && ept <= 4096 && ept % v->ept_multiple == 0) return 0;
    snprintf(err, errlen, "version %s needs --ept to be a multiple of %u from %u to 4096; got %u", v->id,
             v->ept_multiple, v->ept_multiple, ept);
    return -1;
}

int ladder_symbol_is(const char *symbol, const char *id)
{
    for (; *symbol && *id; symbol++, id++)
        if (*symbol != *id && !(*symbol == '_' && *id == '-')) return 0;
    return *symbol == *id;
}

static uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

int ladder_plan(const ladder_version *v, unsigned block, uint64_t n, unsigned ept, ladder_pass *passes)
{
    if (n == 0) return -1;
    int np = 0;
    switch (v->shape) {
    case LADDER_IN_PLACE: {
        unsigned grid = (unsigned)div_up(n, block);
        for (uint64_t s = 1; s < n && np < LADDER_MAX_PASSES; s *= 2)
            passes[np++] = (ladder_pass){grid, block, (unsigned)s, n};
        if (np == 0) passes[np++] = (ladder_pass){grid, block, 1, n}; /* n = 1: one launch that adds nothing */
        break;
    }
    case LADDER_SINGLE_PASS:
        passes[np++] = (ladder_pass){(unsigned)div_up(n, (uint64_t)block * ept), block, 0, n};
        break;
    case LADDER_TREE: {
        uint64_t m = n;
        do {
            unsigned grid = (unsigned)div_up(m, (uint64_t)block * ept);
            passes[np++] = (ladder_pass){grid, block, 0, m};
            m = grid;
        } while (m > 1 && np < LADDER_MAX_PASSES);
        break;
    }
    }
    return np;
}
