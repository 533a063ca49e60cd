/*
 * bar.h - the control bar's controller (issue 42): a click on an item
 * plays its key through the one key table (front_keys.c); the elasticity
 * in steps of 0.01 (a drag or the wheel on its value, Alt-e and Alt-E).
 * The bar itself is a panel (src/draw/panel_bar.c).
 */
#ifndef BAR_H
#define BAR_H

struct ui;

/// The elasticity's fine step.
#define BAR_E_STEP 0.01

/// A mouse event (enum app_mouse) at cell (@p x, @p y), or one going on
/// from a press there: @return 1 when it was the bar's, else 0; *@p key:
/// the key the front end plays for it (a click on an item), or 0.
int bar_mouse(struct ui *u, int kind, int x, int y, int *key);

/// Alt-e, Alt-E: the restitution down / up 0.01.
void bar_elastic_key(struct ui *u, int key);

#endif
