// GTK 4 + libadwaita for RunWalkApp (the only module that imports this one).
// Swift cannot call C macros and varargs functions; the static inline helpers below wrap the
// few the app needs.
#ifndef RUNWALK_CADWAITA_SHIM_H
#define RUNWALK_CADWAITA_SHIM_H

#include <adwaita.h>
#include <glib-unix.h>

// libdispatch's main queue as a file descriptor, and its drain: GLib's loop must drain it, or
// work sent to Swift's main actor never runs inside g_application_run (see PLATFORM.md).
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

// The accessible name screen readers (and the AT-SPI tests) find a control by.
static inline void rw_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

// A longer accessible description (what a control does, or a value's meaning).
static inline void rw_accessible_description(GtkWidget *widget, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

// Connects a signal whose handler takes only the instance and the user data (or more
// arguments, for which `handler` is declared to match).
static inline gulong rw_connect(gpointer instance, const char *signal, GCallback handler, gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

// Pango markup with the user's text escaped (g_markup_printf_escaped is varargs).
static inline char *rw_markup_escape(const char *text) {
    return g_markup_escape_text(text, -1);
}

#endif
