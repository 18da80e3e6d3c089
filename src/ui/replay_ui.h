/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The monitor's time: a recording's time bar and keys, and recording what is on screen (R). */
#ifndef FABTOP_UI_REPLAY_UI_H
#define FABTOP_UI_REPLAY_UI_H

#include <curses.h>
#include <stdbool.h>

struct ui;

/* The monitor shows a recording (--replay): time moves by the keys and the refresh interval. */
bool replay_ui_active(const struct ui *ui);
/* The time bar under the title while replaying; returns the lines used (0 or 1). */
int replay_ui_draw(struct ui *ui, WINDOW *w, int y, int W);
/* A key while the go-to line is edited; false when no line is being edited. */
bool replay_ui_edit_key(struct ui *ui, int ch);
/* The bottom line while the go-to line is edited; false when it is not. */
bool replay_ui_draw_edit(struct ui *ui, WINDOW *w, int y, int W);
/* The keys' work: steps and jumps (samples or ns), the go-to prompt, recording on and off. */
void replay_ui_step(struct ui *ui, int samples);
void replay_ui_jump(struct ui *ui, long long ns);
void replay_ui_goto_prompt(struct ui *ui);
void replay_ui_next_event(struct ui *ui);
void replay_ui_record_toggle(struct ui *ui);
/* " REC 1:05 64 KiB" while recording (into buf), "" otherwise. */
const char *replay_ui_record_tag(struct ui *ui, char *buf, size_t size);

#endif
