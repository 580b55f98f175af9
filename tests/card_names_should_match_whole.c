/* --card and a capture's GPU find a row of the card table by a whole spelling, never a part of one:
 * the cases ("h1000" was an H100, an "RTX A1000" an A100, an H100 PCIe of 114 SMs took the
 * SXM5's 132) are refused or right. The SM counts expected are NVIDIA's published figures (H100
 * whitepaper, table 3: SXM5 132, PCIe 114), and the waves are worked out by hand from them: blocks
 * of 256 threads, 8 per SM (2048 threads / 256), 4096 blocks: 132 x 8 = 1056 at once, 4 waves;
 * 114 x 8 = 912 at once, 5 waves. */
#include <string.h>

#include "check.h"
#include "trace/cards.h"
#include "trace/trace.h"

/* a GPU trace of one pass (4096 blocks of 256) captured on device, its blocks run on SMs 0..sms-1 */
static void gpu_trace(trace *t, const char *device, unsigned sms)
{
    trace_init(t);
    snprintf(t->prov.backend, sizeof t->prov.backend, "gpu");
    snprintf(t->prov.device, sizeof t->prov.device, "%s", device);
    trace_add_pass(t, (trace_pass){.grid = 4096, .block = 256});
    for (unsigned b = 0; b < 4096; b++) {
        trace_run r = {0, b, b % sms, b / sms, b / sms + 1};
        trace_add_run(t, &r);
    }
}

int main(void)
{
    const card *h100 = card_find("h100"), *pcie = card_find("h100pcie"), *a100 = card_find("a100");
    CHECK(h100 && h100->sms == 132, "h100: the SXM5's 132 SMs");
    CHECK(pcie && pcie->sms == 114 && pcie != h100, "h100pcie: the PCIe card's 114 SMs");
    CHECK(a100 && a100->sms == 108, "a100: 108 SMs");

    /* a part of a name is no name */
    const char *refused[] = {"h1000", "RTX A1000", "NVIDIA RTX A1000", "h10", "100", "H100 80GB", "nvidia", "gtx 1060 3gb", ""};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        CHECK(card_find(refused[i]) == NULL, "\"%s\" found %s", refused[i], card_find(refused[i]) ? card_find(refused[i])->id : "");

    /* ids, names, aliases and device strings, whole, in any case */
    struct { const char *name; const char *id; } accepted[] = {
        {"h100", "h100"}, {"H100", "h100"}, {"NVIDIA H100 SXM5", "h100"}, {"nvidia h100 sxm5", "h100"}, {"H100 SXM5", "h100"},
        {"NVIDIA H100 80GB HBM3", "h100"}, {"h100 pcie", "h100pcie"}, {"H100-PCIe", "h100pcie"}, {"NVIDIA H100 PCIe", "h100pcie"},
        {"GTX 1050 TI", "gtx1050ti"}, {"geforce gtx 1060 6gb", "gtx1060"}, {"Tesla V100-PCIE-16GB", "v100"}, {"A100 SXM4", "a100"},
        {"h200", "h200"}, {"NVIDIA H200", "h200"},
    };
    for (size_t i = 0; i < sizeof accepted / sizeof *accepted; i++) {
        const card *c = card_find(accepted[i].name);
        CHECK(c && !strcmp(c->id, accepted[i].id), "\"%s\" found %s, expected %s", accepted[i].name, c ? c->id : "nothing", accepted[i].id);
    }

    /* the table: every spelling names one row only, and every row says where its SM count is from */
    for (size_t i = 0; i < ncards; i++) {
        const card *c = &cards[i];
        CHECK(c->source && strlen(c->source) > 10, "%s: no source for its SM count", c->id);
        const char *sp[2 + CARD_ALIASES_MAX + CARD_DEVICES_MAX] = {c->id, c->name};
        size_t n = 2;
        for (int k = 0; k < CARD_ALIASES_MAX && c->aliases[k]; k++) sp[n++] = c->aliases[k];
        for (int k = 0; k < CARD_DEVICES_MAX && c->devices[k]; k++) sp[n++] = c->devices[k];
        for (size_t k = 0; k < n; k++) CHECK(card_find(sp[k]) == c, "%s: its spelling \"%s\" finds %s", c->id, sp[k], card_find(sp[k]) ? card_find(sp[k])->id : "nothing");
    }

    /* refused with the closest spelling when it is a typo's distance away, else none */
    char err[512];
    card_unknown("h1000", err, sizeof err);
    CHECK(strstr(err, "unknown card \"h1000\"") && strstr(err, "did you mean \"h100\"?"), "h1000: %s", err);
    card_unknown("H100-PCI", err, sizeof err);
    CHECK(strstr(err, "did you mean \"h100-pcie\"?"), "H100-PCI: %s", err);
    card_unknown("RTX A1000", err, sizeof err);
    CHECK(strstr(err, "unknown card \"RTX A1000\"; the cards are gtx1050ti") && !strstr(err, "did you mean"), "RTX A1000: %s", err);

    /* a GPU as it reports itself: its model string whole and its SM count */
    CHECK(card_for_device("NVIDIA H100 PCIe", 114) == pcie, "an H100 PCIe of 114 SMs is the PCIe row");
    CHECK(card_for_device("NVIDIA H100 PCIe", 114) != h100, "an H100 PCIe of 114 SMs became the SXM5");
    CHECK(card_for_device("NVIDIA H100 80GB HBM3", 132) == h100, "an H100 80GB HBM3 of 132 SMs is the SXM5");
    CHECK(card_for_device("NVIDIA H100 80GB HBM3", 114) == NULL, "a GPU of 114 SMs took the SXM5's row");
    CHECK(card_for_device("NVIDIA RTX A1000", 20) == NULL, "an RTX A1000 found a row");
    CHECK(card_for_device("NVIDIA A100-SXM4-80GB", 108) == a100, "an A100-SXM4-80GB is the A100");
    CHECK(card_for_device("GeForce GTX 1060 3GB", 9) == NULL, "a GTX 1060 3GB (9 SMs) took the 6GB's row");
    CHECK(card_for_device("nvidia h100 pcie", 114) == NULL, "a device string is matched as the GPU spells it");

    /* a trace of each: the PCIe card's schedule is its own; an unknown GPU is named, with its SMs */
    trace t;
    card_schedule s;
    gpu_trace(&t, "NVIDIA H100 PCIe", 114);
    const card *c = card_for_trace(&t, NULL);
    CHECK(c == pcie, "a trace of an H100 PCIe is seen on %s", c ? c->id : "nothing");
    CHECK(c && card_schedule_pass(c, &t, 0, &s, err, sizeof err) == 0 && s.sms == 114 && s.resident_blocks == 912 && s.waves == 5,
          "on the H100 PCIe: %u SMs, %llu resident, %llu waves (expected 114, 912, 5)", s.sms, (unsigned long long)s.resident_blocks,
          (unsigned long long)s.waves);
    CHECK(card_for_trace(&t, "h100") == h100 && card_schedule_pass(h100, &t, 0, &s, err, sizeof err) == 0 && s.waves == 4,
          "--card h100 over it: %llu waves (expected 4)", (unsigned long long)s.waves);
    CHECK(card_for_trace(&t, "h1000") == NULL, "--card h1000 over a trace found a card");
    trace_free(&t);

    gpu_trace(&t, "NVIDIA RTX A1000", 20);
    c = card_for_trace(&t, NULL);
    CHECK(c == &card_unknown_gpu, "a trace of an RTX A1000 is seen on %s", c ? c->id : "nothing");
    err[0] = '\0';
    CHECK(c && card_schedule_pass(c, &t, 0, &s, err, sizeof err) == -1 && strstr(err, "\"NVIDIA RTX A1000\"") && strstr(err, "20 SMs") &&
          strstr(err, "not in the card table"),
          "an unknown GPU's schedule: %s", err);
    trace_free(&t);

    /* a model string the table knows on more SMs than its row has is not that row */
    gpu_trace(&t, "NVIDIA H100 80GB HBM3", 140);
    CHECK(card_for_trace(&t, NULL) == &card_unknown_gpu, "an \"H100 80GB HBM3\" running blocks on 140 SMs was taken for the SXM5");
    trace_free(&t);
    gpu_trace(&t, "NVIDIA H100 80GB HBM3", 132);
    CHECK(card_for_trace(&t, NULL) == h100, "an H100 80GB HBM3 on 132 SMs is the SXM5");
    trace_free(&t);

    /* the emulator's traces keep the default */
    trace_init(&t);
    snprintf(t.prov.backend, sizeof t.prov.backend, "cpu");
    CHECK(card_for_trace(&t, NULL) == card_find(CARD_DEFAULT), "an emulator trace is not on the default card");
    trace_free(&t);
    CHECK_DONE("card_names_should_match_whole");
}
