/* strings: every label the viewer shows, in English and Simplified Chinese, in one table.
 * Panels ask for a string by id and language; nothing user-visible is typed into a panel. */
#ifndef WARPSCOPE_STRINGS_H
#define WARPSCOPE_STRINGS_H

typedef enum str_lang { LANG_EN, LANG_ZH, LANG_COUNT } str_lang;

/* X(id, English, Chinese). Labels with printf conversions keep the same conversions, in the same
 * order, in both languages (tests check this). */
#define STR_TABLE(X)                                                                                            \
    X(STR_SHARED_TITLE, "shared memory: 4-byte words, one column per bank", "共享内存：4 字节字，每列一个 bank")   \
    X(STR_SHARED_TITLE_NO_VALUES, "shared memory, one column per bank: the values do not fit the cells (hover a cell, Ctrl +, or a larger window)", \
      "共享内存，每列一个 bank：单元格放不下数值（悬停单元格、Ctrl + 或放大窗口可查看）")                                      \
    X(STR_SHARED_NONE, "no shared memory: this version keeps its data in global memory and registers",            \
      "没有共享内存：此版本的数据在全局内存和寄存器中")                                                           \
    X(STR_LANES_TITLE, "threads: one row per warp, one cell per lane", "线程：每行一个线程束，每格一个线程")       \
    X(STR_BANKS_NONE, "banks: no shared-memory access in this step", "bank：这一步没有访问共享内存")                \
    X(STR_BANKS_TITLE, "lanes to banks: warp %u %s, conflict degree %d (%s)",                                   \
      "线程到 bank：线程束 %u %s，冲突度 %d（%s）")                                                                  \
    X(STR_BANKS_TITLE_SHORT, "warp %u %s: conflict degree %d", "线程束 %u %s：冲突度 %d") /* where the whole title does not fit: the extra wavefronts are the footer's */ \
    X(STR_BANKS_ASKING, "lanes to banks: warp %u %s (answer first: the conflicts show after)", "线程到 bank：线程束 %u %s（请先作答，之后再显示冲突）") \
    X(STR_LOAD, "load", "读")                                                                                    \
    X(STR_STORE, "store", "写")                                                                                  \
    X(STR_SOURCE_TITLE, "%s  line %u", "%s  第 %u 行")                                                           \
    X(STR_SOURCE_NONE, "source not available", "没有源代码")                                                     \
    X(STR_STATS_TITLE, "so far in this block", "本线程块至今")                                                   \
    X(STR_STAT_PHASE, "phase %u (of 0 to %u), step %zu (of 0 to %zu)", "阶段 %u（0 到 %u），步骤 %zu（0 到 %zu）")     \
    X(STR_STAT_LINE, "line %u: %s, %s", "第 %u 行：%s，%s")                                      \
    X(STR_STAT_PRINTF, "thread %u printed: %.*s (%zu lines here; stats lists them all)",                       \
      "线程 %u 输出：%.*s（这一步共 %zu 行；stats 列出全部）")                                                     \
    X(STR_STAT_ACTIVE, "active threads this phase: %u of %u", "本阶段活跃线程：%u / %u")                          \
    X(STR_STAT_SIMD, "SIMD efficiency: %.1f%%", "SIMD 效率：%.1f%%")                                              \
    X(STR_STAT_DIVERGENT, "divergent warp instructions: %llu of %llu", "分化的线程束指令：%llu / %llu")            \
    X(STR_STAT_CONFLICTS, "bank conflicts (extra wavefronts): %llu load, %llu store",                             \
      "bank 冲突（多出的波前）：读 %llu，写 %llu")                                                           \
    X(STR_STAT_BARRIERS, "barriers: %llu", "屏障：%llu")                                                         \
    X(STR_STAT_SECTORS, "global sectors: %llu (fewest %llu)", "全局内存扇区：%llu（最少 %llu）")                  \
    X(STR_STAT_RESULT, "result %.9g, reference %.9g", "结果 %.9g，参考值 %.9g")                                   \
    X(STR_STAT_FROM, "%s (%s), block %u, n %llu, %s", "%s（%s），线程块 %u，n %llu，%s")                          \
    X(STR_TIMELINE, "timeline: %zu steps; ticks mark the %u phases", "时间线：%zu 步；刻度标出 %u 个阶段")          \
    X(STR_TIMELINE_FINE, "timeline: %zu steps, warp by warp; ticks mark the %u phases",                           \
      "时间线：%zu 步（逐线程束）；刻度标出 %u 个阶段")                                                            \
    X(STR_LEGEND_WORKING, "working", "工作")                                                                    \
    X(STR_LEGEND_DIVERGED, "diverged (live, elsewhere in the code)", "分化（存活，在代码别处）")                  \
    X(STR_LEGEND_IDLE, "idle", "空闲")                                                                          \
    X(STR_LEGEND_BARRIER, "at __syncthreads", "在 __syncthreads 等待")                                           \
    X(STR_LEGEND_EXITED, "exited", "已退出")                                                                    \
    X(STR_LEGEND_READ, "read", "读取")                                                                          \
    X(STR_LEGEND_WRITTEN, "written", "写入")                                                                    \
    X(STR_LEGEND_CONFLICT, "bank conflict", "bank 冲突")                                                         \
    X(STR_PLAYING, "playing", "播放中")                                                                         \
    X(STR_PAUSED, "paused", "已暂停")                                                                           \
    X(STR_FOOTER_HINT, "%s  |  %.1f steps/s  |  Space play  Left/Right step  PgUp/PgDn phase  ? keys",          \
      "%s  |  每秒 %.1f 步  |  空格 播放  左/右 单步  PgUp/PgDn 阶段  ? 按键")                                     \
    X(STR_FOOTER_HINT_LESSON, "%s  |  %.1f steps/s  |  Space play  Left/Right step  PgDn/PgUp lesson  ? keys", \
      "%s  |  每秒 %.1f 步  |  空格 播放  左/右 单步  PgDn/PgUp 课程翻页  ? 按键")                      \
    X(STR_FOOTER_HINT_TOUCH, "%s  |  %.1f steps/s  |  ▷ play  ◀ ▶ step  More: phase, speed  ? help", \
      "%s  |  每秒 %.1f 步  |  ▷ 播放  ◀ ▶ 单步  更多：阶段、速度  ? 帮助")                   \
    X(STR_FOOTER_HINT_LESSON_TOUCH, "%s  |  %.1f steps/s  |  ▷ play  ◀ ▶ step  ‹ › page  ? help", \
      "%s  |  每秒 %.1f 步  |  ▷ 播放  ◀ ▶ 单步  ‹ › 翻页  ? 帮助")                   \
    X(STR_HELP_TITLE, "Keys (Esc closes)", "按键（Esc 关闭）")                                                    \
    X(STR_QUIT_ASK, "Quit warpscope? Press Esc or Q again to quit, any other key to stay.",                      \
      "退出 warpscope？再按 Esc 或 Q 退出，按其他键继续。")                                                        \
    X(STR_TIP_THREAD, "thread %u: warp %u, lane %u, %s", "线程 %u：线程束 %u，lane %u，%s")                       \
    X(STR_TIP_REG, "; register %s = %.9g", "；寄存器 %s = %.9g")                                                 \
    X(STR_TIP_ACCESS, "; %s [%lld], value %.6g", "；%s [%lld]，值 %.6g")                                         \
    X(STR_TIP_SHUFFLE, "; from lane %lld, value %.6g", "；来自 lane %lld，值 %.6g")                              \
    X(STR_TIP_WORD, "shared word %lld (byte %lld): bank %lld, value %.9g", "共享内存字 %lld（字节 %lld）：bank %lld，值 %.9g") \
    X(STR_TIP_WORD_SUM, " = word %lld + word %lld (thread %u's add)", " = 字 %lld + 字 %lld（线程 %u 相加）")        \
    X(STR_TIP_WORD_TREE, "; its input tree: %s", "；它的输入树：%s")                                              \
    X(STR_TIP_WORD_CLICK, "; click: its input tree", "；点击：它的输入树")                                          \
    X(STR_TIP_WORD_EMPTY, "shared word %lld (byte %lld): bank %lld, not written yet",                            \
      "共享内存字 %lld（字节 %lld）：bank %lld，尚未写入")                                                          \
    X(STR_TIP_WORD_ASKING, "shared word %lld (byte %lld): bank %lld; its value shows once the question is answered", \
      "共享内存字 %lld（字节 %lld）：bank %lld；回答问题后显示它的值")                                               \
    X(STR_TIP_BANK, "bank %d: lane (word)", "bank %d：lane（字）")                                                \
    X(STR_STATE_IDLE, "idle", "空闲")                                                                           \
    X(STR_STATE_WORKING, "working", "工作")                                                                     \
    X(STR_STATE_DIVERGED, "diverged", "分化")                                                                   \
    X(STR_STATE_BARRIER, "at a barrier", "在屏障处")                                                             \
    X(STR_STATE_EXITED, "exited", "已退出")                                                                     \
    X(STR_SUM_WARP_PART, "%u of %u working", "%u / %u 工作")                                                 \
    X(STR_SUM_TREE, "reduction tree: %zu partial sums so far, %zu in this step", "归约树：至今 %zu 个部分和，本步 %zu 个") \
    X(STR_SUM_TREE_SHORT, "tree: %zu partial sums, %zu now", "归约树：%zu 个部分和，本步 %zu 个") /* where the whole line does not fit */ \
    X(STR_SUM_LOADS, "global memory: elements %lld to %lld, %d sectors (fewest %d)", "全局内存：元素 %lld 到 %lld，%d 个扇区（最少 %d）") \
    X(STR_SUM_SHFL, "shuffles of warp %u: %zu values received so far", "线程束 %u 的洗牌：至今收到 %zu 个值")        \
    X(STR_SUM_MEMORY, "shared memory: %zu words; this step reads %zu and writes %zu", "共享内存：%zu 个字；本步读 %zu 个，写 %zu 个") \
    X(STR_SUM_MEMORY_SHORT, "shared: %zu words, %zu read, %zu written", "共享内存 %zu 字：读 %zu，写 %zu") /* where the whole line does not fit */ \
    X(STR_SUM_LANES, "threads: %s", "线程：%s")                                                                  \
    X(STR_SUM_STATS, "phase %u (of 0 to %u), step %zu (of 0 to %zu); bank conflicts %llu; result %.9g (reference %.9g)", \
      "阶段 %u（0 到 %u），步骤 %zu（0 到 %zu）；bank 冲突 %llu；结果 %.9g（参考值 %.9g）")                              \
    X(STR_SUM_STATS_SHORT, "%s; bank conflicts %llu; step %zu of %zu", "%s；bank 冲突 %llu；步骤 %zu / %zu") /* the brief verdict first, where the whole line does not fit */ \
    X(STR_SUM_STATS_LEAST, "%s; bank conflicts %llu", "%s；bank 冲突 %llu") /* where not even that fits: the step is the timeline's */ \
    X(STR_SUM_SOURCE, "line %u: %s", "第 %u 行：%s")                                                             \
    X(STR_FINE_ON, "warp by warp: each step is one warp's instruction", "逐线程束：每步是一个线程束的一条指令")      \
    X(STR_FINE_OFF, "each step: all warps at one point of the code", "每步：所有线程束在代码的同一处")             \
    X(STR_SAVED, "saved %s", "已保存 %s")                                                                        \
    X(STR_NO_RESULTS, "no benchmark results found", "没有找到基准测试结果")                                       \
    X(STR_BENCH_TITLE, "Reduction of 2^%d floats (%.3g %s) on %s", "归约 2^%d 个 float（%.3g %s），运行于 %s")      \
    X(STR_BENCH_KEYS, "Left/Right: size  |  Up/Down: GPU  |  Tab: per launch / batch  |  B: back  |  ? keys", "左/右：规模  |  上/下：GPU  |  Tab：单次 / 批量  |  B：返回  |  ? 按键") \
    X(STR_BENCH_WRONG, "wrong result: not timed", "结果错误：未计时")                                             \
    X(STR_BENCH_SPEC, "spec peak %.0f GB/s", "理论峰值 %.0f GB/s")                                               \
    X(STR_BENCH_CEILING, "best read kernel %.0f GB/s (measured)", "最快只读内核 %.0f GB/s（实测）")                \
    X(STR_BENCH_BY_SIZE, "GB/s by input size", "不同输入规模下的 GB/s")                                           \
    X(STR_BENCH_LEGEND, "green: warpscope's versions   orange: CUB, Thrust   grey: read-only kernel   red: spec peak", \
      "绿色：warpscope 的各版本   橙色：CUB、Thrust   灰色：只读内核   红色：理论峰值")                              \
    X(STR_UNKNOWN_VERSION, "(unknown version)", "（未知版本）")                                                   \
    X(STR_KEY_PLAY, "play / pause", "播放 / 暂停")                                                               \
    X(STR_KEY_STEP_NEXT, "next step (all warps at one point of the code)", "下一步（所有线程束在同一处代码）")    \
    X(STR_KEY_STEP_PREV, "previous step", "上一步")                                                              \
    X(STR_KEY_PHASE_NEXT, "next phase (slide clicker)", "下一阶段（翻页笔）")                                     \
    X(STR_KEY_PHASE_PREV, "previous phase (slide clicker)", "上一阶段（翻页笔）")                                 \
    X(STR_KEY_FIRST, "first step", "第一步")                                                                     \
    X(STR_KEY_LAST, "last step", "最后一步")                                                                     \
    X(STR_KEY_FASTER, "play faster", "加快播放")                                                                 \
    X(STR_KEY_SLOWER, "play slower", "减慢播放")                                                                 \
    X(STR_KEY_VERSION, "pick a version: %s", "选择版本：%s")                                                     \
    X(STR_KEY_COMPARE, "compare: the next version beside this one", "对比：下一个版本并排显示")                  \
    X(STR_KEY_FINE, "warp by warp on / off", "逐线程束 开 / 关")                                                 \
    X(STR_KEY_PICTURE, "top picture: by the step, tree, global loads, shuffles", "上方图：随步骤、归约树、全局加载、洗牌") \
    X(STR_KEY_WARP_NEXT, "banks: the next warp's access", "bank：下一个线程束的访问")                     \
    X(STR_KEY_WARP_PREV, "banks: the previous warp's access", "bank：上一个线程束的访问")                 \
    X(STR_KEY_SLICE_NEXT, "tree: the next slice of a big block", "归约树：大线程块的下一段")              \
    X(STR_KEY_SLICE_PREV, "tree: the previous slice", "归约树：上一段")                                  \
    X(STR_KEY_CURSOR, "cursor: the next or previous lane or shared word, its details shown",                   \
      "光标：下一个或上一个 lane 或共享内存字，显示其详情")                                                       \
    X(STR_KEY_CURSOR_ROW, "cursor: a row on or back (a warp's lanes, a row of words)",                         \
      "光标：前进或后退一行（一个线程束的 lane、一行字）")                                                        \
    X(STR_TREE_TITLE, "reduction tree: a row per addition, boxes coloured by warp, words %lld to %lld",        \
      "归约树：每行一次加法，按线程束着色，字 %lld 到 %lld")                                                   \
    X(STR_TREE_TITLE_NO_VALUES, "reduction tree: values that do not fit their boxes left out (hover a box, Ctrl +, or a larger window), words %lld to %lld", \
      "归约树：放不下的数值已略去（悬停方框、Ctrl + 或放大窗口可查看），字 %lld 到 %lld")                     \
    X(STR_TREE_NONE, "no reduction tree in memory for this block (registers only)", "本线程块在内存中没有归约树（只在寄存器中）") \
    X(STR_LOADS_TITLE, "global memory: elements %lld to %lld read or written in this step, by warp; ticks: 32-byte sectors", \
      "全局内存：这一步按线程束读写的元素 %lld 到 %lld；刻度：32 字节扇区")                                   \
    X(STR_LOADS_NONE, "global memory: no access in this step", "全局内存：这一步没有访问")                   \
    X(STR_LOADS_WARP, "warp %u: %d sectors (fewest %d)", "线程束 %u：%d 个扇区（最少 %d）")                  \
    X(STR_SHFL_TITLE_NO_VALUES, "warp %u: shuffles, a row per __shfl_down_sync; the values do not fit the boxes (Ctrl + or a larger window)", \
      "线程束 %u：洗牌，每行一次 __shfl_down_sync；方框放不下数值（Ctrl + 或放大窗口可查看）")                                \
    X(STR_SHFL_TITLE, "warp %u: shuffles, a row per __shfl_down_sync, the value each lane received", \
      "线程束 %u：洗牌，每行一次 __shfl_down_sync，每个 lane 收到的值")                                       \
    X(STR_SHFL_NONE, "no shuffles in this version", "此版本没有洗牌")                                         \
    X(STR_SHFL_OFFSET, "offset %d", "偏移 %d")                                                              \
    X(STR_REG_TITLE, "%s, a register: what each lane of warp %u holds after this step", "%s（寄存器）：线程束 %u 的每个 lane 在这一步之后的值") \
    X(STR_REG_TITLE_NO_VALUES, "%s, a register of warp %u's lanes: the values do not fit the cells (Ctrl + or a larger window)", \
      "%s（寄存器），线程束 %u 的各 lane：单元格放不下数值（Ctrl + 或放大窗口可查看）")                                    \
    X(STR_BANKS_FORMULA, "line %u: %s   bank = word %% 32", "第 %u 行：%s   bank = 字 %% 32")                    \
    X(STR_BANKS_FORMULA_SHORT, "line %u   bank = word %% 32", "第 %u 行   bank = 字 %% 32") /* the line's code is the source panel's */ \
    X(STR_KEY_REPLAY, "replay the step's motion", "重放这一步的动画")                                     \
    X(STR_KEY_MOTION, "motion on / off (reduced motion)", "动画 开 / 关（减少动态效果）")                 \
    X(STR_DIFF_CONFLICT, "%s: %d-way conflict, %s", "%s：%d 路 bank 冲突，%s")                      \
    X(STR_DIFF_NONE, "%s: no bank conflict", "%s：没有 bank 冲突")                                          \
    X(STR_DIFF_LANES, "%s: %d of %d lanes work", "%s：%d / %d 个 lane 工作")                                \
    X(STR_KEY_LESSON_NEXT, "lesson: next step (slide clicker)", "课程：下一步（翻页笔）")                   \
    X(STR_KEY_LESSON_BACK, "lesson: step back", "课程：上一步")                                          \
    X(STR_KEY_ANSWER, "answer: type a number or a letter, click items, then Enter", "作答：输入数字或字母，或点选，然后回车") \
    X(STR_KEY_REVEAL, "show the answer", "显示答案")                                                     \
    X(STR_KEY_MENU, "lessons: choose, Enter opens", "课程列表：选择，回车打开")                              \
    X(STR_LESSON_STEP, "%s   step %zu of %zu", "%s   第 %zu / %zu 步")                                     \
    X(STR_LESSON_ASK_PICK, "Click to pick, then Enter.  H: show the answer", "点击选择，然后回车。H：显示答案") \
    X(STR_LESSON_ASK_TYPE, "Type the answer, then Enter: %s", "输入答案后回车：%s")                           \
    X(STR_LESSON_ASK_PICK_TOUCH, "Tap to pick, or type them; then Answer.  Hint: show the answer",             \
      "点按选择，或输入编号；然后点“作答”。“提示”：显示答案")                                                   \
    X(STR_LESSON_ASK_TYPE_TOUCH, "Type the answer, then Answer: %s", "输入答案后点“作答”：%s")                           \
    X(STR_LESSON_RIGHT, "Right.  PgDn: next", "正确。PgDn：下一步")                                           \
    X(STR_LESSON_RIGHT_TOUCH, "Right.  ›: next page", "正确。›：下一页")                                           \
    X(STR_LESSON_WRONG, "Not quite.  Try again, or H for the answer", "不完全对。再试一次，或按 H 查看答案")   \
    X(STR_HINT_PICK, "Your picks: %u right, %u wrong (in red); %u missing from the answer.", "你的选择：%u 个对，%u 个错（红色）；答案中还缺 %u 个。") \
    X(STR_HINT_HIGH, "Fewer than %s.", "比 %s 小。")                                                             \
    X(STR_HINT_LOW, "More than %s.", "比 %s 大。")                                                                \
    X(STR_HINT_CHOICE, "Not %s: the picture shows why.", "不是 %s：图中可以看出原因。")                              \
    X(STR_LESSON_OPEN, "The question on the last step was left open: PgUp goes back to it", "上一步的问题尚未回答：按 PgUp 返回") \
    X(STR_LESSON_AT_END, "This is the lesson's last step: PgUp goes back, Esc returns to the lessons", "这是本课最后一步：PgUp 返回上一步，Esc 回到课程列表") \
    X(STR_LESSON_AT_START, "This is the lesson's first step: PgDn goes on", "这是本课第一步：PgDn 继续")          \
    X(STR_LESSON_REVEALED, "The answer: %s", "答案：%s")                                                     \
    X(STR_LESSON_NEXT, "PgDn: next   PgUp: back", "PgDn：下一步   PgUp：上一步")                            \
    X(STR_LESSON_NEXT_TOUCH, "›: next page   ‹: back", "›：下一页   ‹：上一页")                            \
    X(STR_EXERCISE_HEAD, "%s   goals met: %zu of %zu", "%s   已达成目标：%zu / %zu")                                  \
    X(STR_MENU_EXERCISE, "exercise %.2s: %s", "练习 %.2s：%s")                                                        \
    X(STR_MENU_EXERCISE_START, "an exercise is written in your editor: warpscope exercise start %.2s", "练习在你的编辑器里写：warpscope exercise start %.2s") \
    X(STR_EXERCISE_KEYS, "edit and save your file: the checklist follows   PgDn: a hint", "编辑并保存你的文件：清单随之更新   PgDn：提示") \
    X(STR_EXERCISE_FILE, "your file: %s", "你的文件：%s")                                                            \
    X(STR_EXERCISE_HINT, "hint %zu: %s", "提示 %zu：%s")                                                             \
    X(STR_EXERCISE_NOT_RUN, "your file did not run: %s", "你的文件没有运行：%s")                                     \
    X(STR_EXERCISE_SOLVED, "every goal met: solved", "所有目标都已达成：完成")                                         \
    X(STR_EXERCISE_TIMING, "every goal of the trace met: timing your file on %s", "轨迹上的目标都已达成：正在 %s 上为你的文件计时")   \
    X(STR_EXERCISE_TIMED, "on %s: %s", "在 %s 上：%s")                                                                 \
    X(STR_EXERCISE_NOT_TIMED, "not timed on the card: %s", "没有在显卡上计时：%s")                                    \
    X(STR_MENU_TITLE, "Lessons (Down/Up, Enter)", "课程（上下键选择，回车打开）")                              \
    X(STR_PANE_BLOCK, "%s — pass %u, block %u", "%s — 第 %u 轮，线程块 %u")                                  \
    X(STR_PANE_WHERE, "pass %u, block %u", "第 %u 轮，线程块 %u") /* the title's second line where one is too narrow */ \
    X(STR_KEY_GRID, "the whole grid: every block of every pass", "整个网格：每一轮的每个线程块") \
    X(STR_KEY_PASSES, "the launches as Harris draws them: level by level, each block to its partial sum", "按 Harris 的图看各次启动：逐层，每个线程块归约出一个部分和") \
    X(STR_PASSES_TITLE, "kernel decomposition: %u launches reduce %llu elements, level by level", "内核分解：%u 次启动逐层归约 %llu 个元素") \
    X(STR_PASSES_TITLE_ONE, "one launch of %u blocks: the last block to finish sums their partials", "一次启动 %u 个线程块：最后完成的线程块把部分和相加") \
    X(STR_PASSES_LEVEL, "level %u: %u blocks x %u threads, each reduces %llu elements", "第 %u 层：%u 个线程块 × %u 个线程，每块归约 %llu 个元素") \
    X(STR_PASSES_COUNTS, "%llu adds, the longest chain %u adds (traced blocks: %u)", "%llu 次加法，最长依赖链 %u 次加法（追踪的线程块：%u）") \
    X(STR_PASSES_LEVEL_ONE, "level %u: one block of %u threads reduces %llu elements", "第 %u 层：一个 %u 线程的线程块归约 %llu 个元素") \
    X(STR_PASSES_OUT, "%u partial sums \xE2\x86\x92 level %u", "%u 个部分和 \xE2\x86\x92 第 %u 层") \
    X(STR_PASSES_TICKET, "%u partial sums: the block that draws the last ticket adds them", "%u 个部分和：拿到最后一张票的线程块把它们相加") \
    X(STR_PASSES_TOTAL, "in all: %llu adds for %llu elements (n - 1 = %llu), the longest chain %u adds (log2 n = %.1f)", \
      "合计：%llu 次加法归约 %llu 个元素（n - 1 = %llu），最长依赖链 %u 次加法（log2 n = %.1f）") \
    X(STR_PASSES_PART, "in the traced blocks (%u of %u): %llu adds, the longest chain %u adds; A traces every block", \
      "追踪的线程块（%u / %u）中：%llu 次加法，最长依赖链 %u 次加法；按 A 追踪全部线程块") \
    X(STR_PASSES_UNTRACED, "?: a block not traced (A traces every block)", "?：没有追踪的线程块（按 A 追踪全部）") \
    X(STR_PASSES_KEYS, "K: back  |  A: trace every block  |  ? keys", "K：返回  |  A：追踪全部线程块  |  ? 按键") \
    X(STR_PASSES_BLOCK, "block %u", "线程块 %u") \
    X(STR_KEYS_IN_PASSES, "passes", "分解图") \
    X(STR_PASSES_NONE, "passes: no trace is loaded", "分解图：没有载入跟踪") \
    X(STR_PASSES_OUT_PLAIN, "its output \xE2\x86\x92 level %u", "它的输出 \xE2\x86\x92 第 %u 层") \
    X(STR_PASSES_MORE, "\xE2\x80\xA6 %u more levels", "\xE2\x80\xA6\xE2\x80\xA6 还有 %u 层") \
    X(STR_KEY_GRID_PASS, "grid: the previous / next pass", "网格：上一轮 / 下一轮")                               \
    X(STR_KEY_GRID_TIME, "grid: the launch's first wave / its end", "网格：启动的第一波 / 结束时") \
    X(STR_KEY_TRACE_ALL, "grid: trace every block (a progress bar; Esc stops)", "网格：跟踪全部线程块（显示进度；Esc 停止）") \
    X(STR_KEY_GRID_N, "grid: 2^20 elements (4,096 blocks of 256: the card fills in waves), or back",                \
      "网格：2^20 个元素（4096 个 256 线程的线程块：卡上分几波运行），或恢复原大小")                                   \
    X(STR_TRACING, "tracing every block: %s (Esc stops)", "正在跟踪全部线程块：%s（Esc 停止）")                      \
    X(STR_KEY_GRID_WAVE, "grid: the next / previous wave of blocks on the card", "网格：卡上的下一波 / 上一波线程块") \
    X(STR_GRID_TITLE, "%s — %s", "%s — %s") /* the version's name, then the pass (on two lines where one is too narrow) */ \
    X(STR_GRID_TITLE_PASS, "pass %u: a grid of %u x %u threads reduces %llu elements",                           \
      "第 %u 轮：%u x %u 个线程的网格归约 %llu 个元素")                                                         \
    X(STR_GRID_PLAN, "launch plan:", "启动计划：")                                                               \
    X(STR_GRID_PASS, "pass %u: %u x %u, n_in %llu", "第 %u 轮：%u x %u，输入 %llu 个元素")                               \
    X(STR_GRID_PASS_SHAPE, "pass %u: %u x %u", "第 %u 轮：%u x %u") /* a tab where the whole one does not fit */ \
    X(STR_GRID_PLAN_MORE, "+%u more", "另有 %u 轮") /* the passes whose tabs do not fit */ \
    X(STR_GRID_WAITING, "not started", "未开始")                                                                 \
    X(STR_GRID_RUNNING, "running", "运行中")                                                                     \
    X(STR_GRID_DONE, "done: its partial sum", "完成：它的部分和")                                                  \
    X(STR_GRID_UNTRACED, "not traced", "未跟踪")                                                                  \
    X(STR_GRID_OPEN, "open in the detailed view", "在详细视图中打开")                                              \
    X(STR_GRID_SOME_TRACED, "partial sums of %u of %u blocks: the others were not traced (A traces them all; so does --blocks-traced %u)", \
      "显示 %u / %u 个线程块的部分和：其余未被跟踪（按 A 全部跟踪；--blocks-traced %u 亦可）")                            \
    X(STR_GRID_SOME_TRACED_FILE, "partial sums of %u of %u blocks: the others were not traced in this file (a capture with --blocks-traced %u has them all)", \
      "显示 %u / %u 个线程块的部分和：此文件未跟踪其余线程块（用 --blocks-traced %u 捕获即可全部得到）")                  \
    X(STR_GRID_CAPPED, "the grid has %u blocks: the first %u are drawn", "网格共有 %u 个线程块：只画出前 %u 个")            \
    X(STR_GRID_SCHED, "on the %s: %u SMs x %u blocks of %u threads = %llu blocks at once (limited by %s); the grid of %s takes %s", \
      "在 %s 上：%u 个 SM x 每个 %u 个 %u 线程的线程块 = 同时 %llu 个（受%s限制）；%s的网格分 %s运行")                   \
    X(STR_GRID_WAVE, "wave %lu of %lu: blocks %llu to %llu run, %llu done (PgDn/PgUp: next/previous wave)",          \
      "第 %lu / %lu 波：线程块 %llu 到 %llu 运行，%llu 个已完成（PgDn/PgUp：下一波/上一波）")                          \
    X(STR_GRID_WAVE_LAST, "the last wave, %lu of %lu: blocks %llu to %llu fill %llu of the card's %llu slots; the rest stand idle", \
      "最后一波（第 %lu / %lu 波）：线程块 %llu 到 %llu 只占卡上 %llu / %llu 个位置，其余空闲")                          \
    X(STR_GRID_ENDED, "the launch has ended: %s, every one done (Home: its first wave)", "启动已结束：%s全部完成（Home：第一波）") \
    X(STR_GRID_TIMED, "as the %s ran it: %.1f us into the launch, when the last block of wave %lu of %lu started: %llu blocks running, %llu done", \
      "%s 的实际运行：启动后 %.1f 微秒，第 %lu / %lu 波的最后一个线程块开始时：%llu 个线程块运行中，%llu 个已完成")           \
    X(STR_GRID_TIMED_SCHED, "%u SMs; at most %u blocks ran at once on one SM; %llu blocks started before the first ended (--card %s: the model's %u)", \
      "%u 个 SM；一个 SM 上最多同时 %u 个线程块；第一个结束前开始了 %llu 个（--card %s：模型为 %u）")                      \
    X(STR_LIMIT_THREADS, "threads per SM", "每个 SM 的线程数")                                                      \
    X(STR_LIMIT_BLOCKS, "blocks per SM", "每个 SM 的线程块数")                                                      \
    X(STR_LIMIT_SHARED, "shared memory per SM", "每个 SM 的共享内存")                                               \
    X(STR_LIMIT_REGISTERS, "registers per SM", "每个 SM 的寄存器")                                                  \
    X(STR_GRID_SCHED_HELD, "on the %s: %u SMs (the rest once the question is answered)", "在 %s 上：%u 个 SM（回答问题后显示其余数字）") \
    X(STR_GRID_NO_SCHED, "no schedule on a card: %s", "无法排到卡上：%s")                                                 \
    X(STR_GRID_CARD_TITLE, "the card's SMs, a box each, with a slot for each block it holds at once", "卡上的 SM：每个一格，每格中每个位置容纳一个线程块") \
    X(STR_GRID_FLOW, "pass %u writes %u partial sums to global memory, one per block; pass %u's blocks read them:", \
      "第 %u 轮把 %u 个部分和写入全局内存，每个线程块一个；第 %u 轮的线程块读取它们：")                                  \
    X(STR_GRID_FLOW_IN_PLACE, "pass %u adds element i + %u into every element i that is a multiple of %u, in place in global memory; pass %u goes on from those sums:", \
      "第 %u 轮把元素 i + %u 加到每个下标是 %u 的倍数的元素 i 上，直接在全局内存里原地进行；第 %u 轮接着处理这些和：")      \
    X(STR_GRID_RESULT, "pass %u writes the result: %.9g (reference %.9g)",                                          \
      "第 %u 轮写出结果：%.9g（参考值 %.9g）")                                                                         \
    X(STR_GRID_TICKETS, "each block writes its partial sum to global memory, then draws a ticket; block %d drew the last and sums all %u:", \
      "每个线程块把部分和写入全局内存，再取一张票；线程块 %d 取到最后一张，汇总全部 %u 个：")                              \
    X(STR_GRID_TICKETS_UNTRACED, "each block writes its partial sum to global memory, then draws a ticket; the block with the last was not traced", \
      "每个线程块把部分和写入全局内存，再取一张票；取到最后一张票的线程块未被跟踪")                                       \
    X(STR_GRID_TICKET, "ticket %d", "票 %d")                                                                     \
    X(STR_GRID_LAST, "last ticket: sums the partials", "最后一张票：汇总部分和")                                     \
    X(STR_GRID_READS, "pass %u, block %u", "第 %u 轮，线程块 %u")                                                                   \
    X(STR_GRID_SM, "SM %u #%d", "SM %u #%d")                                                                   \
    X(STR_GRID_SMS, "GPU trace: each tile names the SM its block ran on and its turn there (#1 first, by that SM's clock); SMs used: %u", \
      "GPU 跟踪：每格标出线程块运行的 SM 及其在该 SM 上的次序（#1 最先，按该 SM 的时钟）；用到的 SM：%u 个")                    \
    X(STR_GRID_HIDDEN, "%zu more blocks do not fit: a larger window or Ctrl - shows them", "还有 %zu 个线程块放不下：放大窗口或按 Ctrl - 显示") \
    X(STR_GRID_KEYS, "PgDn/PgUp: wave  |  Left/Right: pass  |  N: 2^20 elements  |  click a block: open it  |  Home/End: first wave / end  |  G, Esc: back", \
      "PgDn/PgUp：波  |  左/右：轮次  |  N：2^20 个元素  |  点击线程块：打开  |  Home/End：第一波 / 结束  |  G、Esc：返回")                  \
    X(STR_GRID_KEYS_LESSON, "Down/Up: wave  |  PgDn/PgUp: the lesson's next / previous step", "下/上：波  |  PgDn/PgUp：课程的下一步 / 上一步") \
    X(STR_GRID_NONE, "no trace to show", "没有可显示的跟踪")                                                        \
    X(STR_GRID_SM_TITLE, "SMs: a row per SM, its blocks in the order they started there", "SM：每行一个 SM，其线程块按在该 SM 上开始的次序排列") \
    X(STR_GRID_TIP, "pass %u, block %u: %s; %zu events in %zu phases, %llu warp instructions; click: open it",   \
      "第 %u 轮，线程块 %u：%s；%zu 个事件，%zu 个阶段，%llu 条线程束指令；点击：打开")                                 \
    X(STR_GRID_TIP_PARTIAL, "; partial sum %.9g", "；部分和 %.9g")                                              \
    X(STR_GRID_TIP_UNTRACED, "pass %u, block %u: not traced (--blocks-traced)", "第 %u 轮，线程块 %u：未跟踪（--blocks-traced）") \
    X(STR_GRID_FELL_BACK, "block %s (pass/block) was not traced in this capture: showing pass 0, block 0 (--blocks-traced traces more)", \
      "本次捕获没有跟踪线程块 %s（轮/块）：显示第 0 轮线程块 0（--blocks-traced 可跟踪更多）")                             \
    X(STR_KEY_SCHEDULE, "break it: schedule lockstep, independent threads (its:1), adversarial", "破坏它：调度 锁步、独立线程调度（its:1）、对抗式") \
    X(STR_KEY_DROP, "break it: leave out this step's __syncthreads", "破坏它：去掉这一步的 __syncthreads")            \
    X(STR_KEY_UNDROP, "put the __syncthreads back", "恢复 __syncthreads")                                       \
    X(STR_DROPPED, "line %s: its __syncthreads is left out (struck through in the source; Shift+D puts it back)",       \
      "第 %s 行：去掉了它的 __syncthreads（源码中已划掉；Shift+D 恢复）")                                             \
    X(STR_UNDROPPED, "the __syncthreads is back%s", "__syncthreads 已恢复%s")                                              \
    X(STR_STAT_HAZARD, "race: %s, lines %u and %u, word %lld, threads %u and %u", "竞争：%s，第 %u 行与第 %u 行，字 %lld，线程 %u 与 %u") \
    X(STR_STAT_HAZARDS, "races in this block: %zu (schedule %s%s)", "本线程块的竞争：%zu 处（调度 %s%s）")     \
    X(STR_STAT_WRONG, "result %.9g, reference %.9g: WRONG", "结果 %.9g，参考值 %.9g：错误")                     \
    X(STR_STAT_RACING, "result %.9g, reference %.9g: right here, racing", "结果 %.9g，参考值 %.9g：此调度下正确，但有竞争")   \
    X(STR_VERDICT_WRONG, "WRONG: %.9g, should be %.9g", "错误：%.9g，应为 %.9g")                                 \
    X(STR_VERDICT_RACING, "right under this schedule, racing at line %u", "此调度下正确，但第 %u 行有竞争")        \
    X(STR_VERDICT_RIGHT, "right: %.9g (reference %.9g)", "正确：%.9g（参考值 %.9g）")                            \
    X(STR_VERDICT_RACES, "; races: %zu", "；竞争：%zu 处")                                                       \
    X(STR_VERDICT_WRONG_SHORT, "WRONG: %.9g \xE2\x89\xA0 %.9g", "错误：%.9g \xE2\x89\xA0 %.9g")                     \
    X(STR_VERDICT_RACING_SHORT, "racing at line %u", "第 %u 行有竞争")                                            \
    X(STR_VERDICT_RIGHT_SHORT, "right: %.9g", "正确：%.9g")                                                      \
    X(STR_VERDICT_RACES_SHORT, ", %zu races", "，竞争 %zu 处")                                                   \
    X(STR_LEGEND_WRONG, "wrong sum", "错误的和")                                                                 \
    X(STR_DIFF_END, "%s: the kernel has ended", "%s：内核已结束")                                               \
    X(STR_SHFL_TITLE_WINDOW, "warp %u: shuffles, lanes 0 to %d (a value per box; arrows from the right come from lanes further on)", \
      "线程束 %u：洗牌，第 0 到 %d 号线程（每格一个值；从右边来的箭头来自更远的线程）")                          \
    X(STR_GRID_CARD_ROWS, "the card's SMs in rows: how many of each SM's slots hold a block", "显卡的 SM，按行排列：每个 SM 有几个槽位正在运行线程块") \
    X(STR_SOURCE_END, "the end of the kernel: these threads exit", "内核的结尾：这些线程退出")            \
    X(STR_LANES_DIVERGED, "warp %u at line %u: %u working, %u diverged (the branch not taken), %u idle",          \
      "线程束 %u 在第 %u 行：%u 个工作，%u 个分化（未走这条分支），%u 个空闲")                                      \
    X(STR_TICKETS_TITLE, "tickets: atomicInc hands block after block a number; the one that draws %u sums all %u partial sums", \
      "票号：atomicInc 依次发给每个线程块一个号码；拿到 %u 的线程块把全部 %u 个部分和相加")                           \
    X(STR_TICKETS_NONE, "tickets: no atomic in this pass", "票号：这一趟没有原子操作")                                 \
    X(STR_SUM_TICKETS, "tickets: block %u drew %d (of 0 to %u)", "票号：线程块 %u 拿到 %d（0 到 %u）")                \
    X(STR_KEY_BENCH_GPU, "benchmark: the next GPU", "基准测试：换一块 GPU")                                      \
    X(STR_KEY_BENCH_MODE, "benchmark: per launch / batch timing", "基准测试：单次启动 / 批量 计时")                 \
    X(STR_BENCH_COLS, "version|time|GB/s|vs above|vs v0|of spec peak", "版本|时间|GB/s|比上一行|比 v0|占理论峰值")              \
    X(STR_BENCH_MODE_LAUNCH, "per launch: the median of single launches, inputs rotated past L2", "单次启动：单次启动时间的中位数，输入轮换以越过 L2") \
    X(STR_BENCH_MODE_BATCH, "batch: the mean of many back-to-back launches, as published numbers are timed", "批量：连续多次启动的平均时间（公开数字的计时方式）") \
    X(STR_BENCH_LATENCY, "at this size the time is launch latency, not bandwidth", "这个规模下时间主要是启动延迟，而不是带宽") \
    X(STR_KEY_BENCH, "benchmark results", "基准测试结果")                                                        \
    X(STR_KEY_THEME, "light / dark theme", "浅色 / 深色主题")                                                    \
    X(STR_KEY_BIGGER, "larger text and cells", "放大文字和格子")                                                 \
    X(STR_KEY_SMALLER, "smaller text and cells", "缩小文字和格子")                                               \
    X(STR_KEY_PRESENTER, "presenter mode (large text for a room)", "演示模式（大字，适合教室）")                 \
    X(STR_KEY_LANG, "English / Chinese", "英文 / 中文")                                                          \
    X(STR_KEY_FULLSCREEN, "fullscreen", "全屏")                                                                  \
    X(STR_KEY_SHOT, "save a screenshot (PNG)", "保存截图（PNG）")                                                \
    X(STR_KEY_RECORD, "record: press at the first step, again at the last: saves the steps as a GIF",            \
      "录制：在第一步按一次，在最后一步再按一次：把这些步骤保存为 GIF")                                               \
    X(STR_RECORDING, "recording from step %s: step on, then E again saves the GIF",                              \
      "从第 %s 步开始录制：继续前进，再按 E 保存 GIF")                                                                \
    X(STR_KEY_HELP, "this help", "本帮助")                                                                      \
    X(STR_KEY_ESCAPE, "close an overlay or the cursor; in the main view, quit (asks once)", "关闭浮层或光标；在主视图中退出（会确认）") \
    X(STR_KEY_ESCAPE_PAGE, "close an overlay or the cursor; in the main view, the lessons", "关闭浮层或光标；在主视图中打开课程列表") \
    X(STR_KEY_QUIT, "quit (asks once)", "退出（会确认）")                                                         \
    X(STR_MOUSE, "mouse", "鼠标")                                                                              \
    X(STR_KEY_MOUSE, "mouse: hover a lane, cell or bank for its details; a click (a tap) keeps them, and a cell's input tree", \
      "鼠标：悬停在 lane、格子或 bank 上查看详情；点击（轻点）后详情保留，格子还显示它的输入树")                        \
    X(STR_TYPE_NUMBER, "type a number, then Enter", "输入一个数，然后按 Enter")                                    \
    X(STR_TYPE_CHOICE, "press a letter to choose, then Enter", "按一个字母选择，然后按 Enter")                      \
    X(STR_DROP_NEEDS_BARRIER, "D drops the __syncthreads of the current step: step to a barrier first (Shift+D puts it back)", \
      "D 去掉当前这一步的 __syncthreads：请先走到一个屏障（Shift+D 恢复）")                                           \
    X(STR_KEYS_IN_LESSON, "lesson", "课程")                                                                    \
    X(STR_KEYS_IN_MENU, "menu", "菜单")                                                                        \
    X(STR_KEYS_IN_GRID, "grid", "网格")                                                                        \
    X(STR_KEYS_IN_BENCH, "benchmark", "基准测试")                                                              \
    X(STR_DEVICE_EMULATOR, "CPU emulator", "CPU 模拟器")                                                        \
    X(STR_PAGE_NOT_CARRIED, "%s (%s) is not among the captures this page carries; the desktop program captures any", \
      "本页没有带上 %s（%s）的捕获；桌面程序可以捕获任意一种")                                                       \
    X(STR_PAGE_NO_LESSON, "no lesson \"%s\": the menu lists the lessons there are", "没有课程“%s”：菜单中列出了所有课程")          \
    X(STR_PAGE_THIS_SIZE, "this size", "这个规模")                                                             \
    X(STR_PAGE_NO_BARRIER, "a barrier left out", "去掉一个屏障")                                                \
    X(STR_PAGE_DROP_NEITHER, "The file %s is neither a trace (.wstrace or JSON) nor benchmark results: it did not open. Details: %s", \
      "文件 %s 既不是跟踪文件（.wstrace 或 JSON）也不是基准测试结果，没有打开。详情：%s")                            \
    X(STR_PAGE_DROP_TRACE, "The trace in %s cannot be read or shown: it did not open. Details: %s",               \
      "文件 %s 中的跟踪无法读取或显示，没有打开。详情：%s")                                                        \
    X(STR_PAGE_DROP_RESULTS, "The benchmark results in %s cannot be read: they did not open. Details: %s",        \
      "文件 %s 中的基准测试结果无法读取，没有打开。详情：%s")                                                      \
    X(STR_PAGE_ONE_BLOCK, "one block traced: the page carries every block of the default capture only",         \
      "只跟踪了一个线程块：本页只为默认捕获带上了全部线程块")

typedef enum str_id {
#define STR_X_ENUM(id, en, zh) id,
    STR_TABLE(STR_X_ENUM)
#undef STR_X_ENUM
        STR_COUNT
} str_id;

/* What each event kind is called in front of a learner, in trace.h's TRACE_KINDS order (strings.c
 * checks the count): X(English, Chinese). */
#define STR_KIND_TABLE(X)                                   \
    X("shared load", "读共享内存")                            \
    X("shared store", "写共享内存")                           \
    X("global load", "读全局内存")                            \
    X("global store", "写全局内存")                           \
    X("atomic add", "原子操作")                               \
    X("shuffle", "线程束洗牌")                                \
    X("__syncthreads", "__syncthreads 屏障")                  \
    X("__syncwarp", "__syncwarp 同步")                        \
    X("memory fence", "内存栅栏")                             \
    X("exit", "退出")                                         \
    X("register", "寄存器")                                   \
    X("printf", "printf 输出")

/* Counted nouns: X(id, English one, English many, Chinese). str_count writes "1 warp", "3 warps",
 * "3 个线程束". */
#define STR_NOUN_TABLE(X)                                                  \
    X(NOUN_WARP, "warp", "warps", "个线程束")                                \
    X(NOUN_WAVEFRONT, "extra wavefront", "extra wavefronts", "个额外波前") \
    X(NOUN_STEP, "step", "steps", "步")                                      \
    X(NOUN_PHASE, "phase", "phases", "个阶段")                               \
    X(NOUN_BLOCK, "block", "blocks", "个线程块")                             \
    X(NOUN_WAVE, "wave", "waves", "波")                                      \
    X(NOUN_WORD, "word", "words", "个字")

typedef enum str_noun {
#define STR_X_NOUN(id, one, many, zh) id,
    STR_NOUN_TABLE(STR_X_NOUN)
#undef STR_X_NOUN
        NOUN_COUNT
} str_noun;

/* The label in that language (never NULL). */
const char *str_get(str_lang lang, str_id id);
/* An event kind (trace_kind) in the learner's words: "shared store", "写共享内存". */
const char *str_kind(str_lang lang, int kind);
/* n and its noun, in the right form: "1 warp", "2 warps", "2 个线程束". Returns buf. */
const char *str_count(str_lang lang, str_noun noun, unsigned long long n, char *buf, unsigned long len);
/* "en" or "zh"; -1 if neither. */
int str_lang_parse(const char *s);
const char *str_lang_code(str_lang lang);

#endif
