/*
 * KeyboardExtensionABI.h — the contract between a KeyboardHost host and a keyboard extension.
 *
 * SPDX-License-Identifier: MIT
 *
 * This header is the only thing a host and an extension share. Nothing else crosses: no Swift types,
 * no C++ types, no allocator. An extension may be written in Swift (with the KeyboardExtension SDK),
 * in C, or in anything that can export a C symbol; it may be built by another compiler than the host.
 *
 * 1. Loading
 *    The host opens the shared library with dlopen(RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) and never
 *    closes it. It looks up one symbol, KBX_ENTRY_SYMBOL, of type kbx_entry_fn, and calls it once.
 *    The entry returns a pointer to a kbx_extension_descriptor that stays valid, unchanged, for the
 *    life of the process; or NULL, which the host reports as a failed load.
 *
 * 2. Versioning
 *    Every struct that crosses starts with `abi_version` and `struct_size`. The host accepts a
 *    descriptor whose abi_version it supports and whose struct_size is at least the size of the
 *    struct of that version. Later minor revisions only append fields, so a reader must check
 *    struct_size before reading a field that was appended after the version it was built with.
 *
 * 3. Threads and re-entrancy
 *    The host calls every callback from its main dispatch queue (where Swift's main actor runs), one
 *    at a time. An extension calls the host API (kbx_host_api) from there too, inside a callback or
 *    later from work it scheduled on the main queue; a host may move a call from another thread to
 *    its main queue, so such a call takes effect later. The host copies what it needs before a call
 *    returns. (On Linux the main queue is not always drained by the process's first thread: once
 *    the host is in dispatch_main(), a worker thread drains it.)
 *
 * 4. Memory
 *    Pointers the host passes (strings, snapshots, events) are borrowed: valid only during the call.
 *    Pointers the extension passes to the host are borrowed the same way. Strings are UTF-8 with an
 *    explicit length and need not be NUL-terminated, except the descriptor's identity strings,
 *    which are NUL-terminated and static.
 *
 * 5. The state model (as on iOS, where the keyboard runs in another process)
 *    The host owns the text field. The extension's proxy answers reads from the latest snapshot the
 *    host pushed (update_snapshot). Edits the extension makes (insert_text, delete_backward,
 *    adjust_text_position) are *posted*: the host applies them in order on a later turn of its event
 *    loop, then pushes a new snapshot between the matching will/did events. Reading right after
 *    posting therefore returns the old state, exactly as UITextDocumentProxy does.
 *
 * 6. Units
 *    Offsets and counts are Characters: Unicode extended grapheme clusters. The host never leaves the
 *    cursor inside a cluster.
 */
#ifndef KEYBOARD_EXTENSION_ABI_H
#define KEYBOARD_EXTENSION_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ABI version this header describes. A host states the range it supports. */
#define KBX_ABI_VERSION 1u

/** The one symbol an extension exports. Its type is kbx_entry_fn. */
#define KBX_ENTRY_SYMBOL "kbx_extension_entry"

/** Opaque: the host's context for one extension instance. Pass it back to every kbx_host_api call. */
typedef struct kbx_host kbx_host;

/** Opaque: one extension instance (on iOS, one UIInputViewController). Owned by the extension. */
typedef struct kbx_instance kbx_instance;

/** Result of a callback that can fail. Anything but KBX_STATUS_OK is a failure. */
typedef int32_t kbx_status;
enum {
    KBX_STATUS_OK = 0,
    /** A failure the extension described with kbx_host_api.report_error before returning. */
    KBX_STATUS_FAILED = 1,
    /** create_configuration was not implemented by the extension (the SDK's base class was reached). */
    KBX_STATUS_NOT_CONFIGURED = 2,
    /** A key event named a key the extension's current layout does not have. */
    KBX_STATUS_NO_SUCH_KEY = 3,
};

/** A borrowed UTF-8 string: `length` bytes at `bytes`. `bytes` may be NULL when `length` is 0. */
typedef struct kbx_string {
    const char *bytes;
    size_t length;
} kbx_string;

/* ---------------------------------------------------------------------------------------------- */
/* Host -> extension: the text input state                                                          */
/* ---------------------------------------------------------------------------------------------- */

/**
 * What the extension's proxy may know of the text field. Pushed by the host after every change.
 * The windows are cut by the session's context policy; they never end inside a cluster.
 */
typedef struct kbx_text_snapshot {
    uint32_t abi_version;
    uint32_t struct_size;
    /** Increases by at least one with every snapshot pushed to this instance. */
    uint64_t sequence;
    /** Text before the cursor (or before the selection), as far as the policy allows. */
    kbx_string context_before;
    /** Text after the cursor (or after the selection), as far as the policy allows. */
    kbx_string context_after;
    /** The selected text; empty when nothing is selected. */
    kbx_string selected_text;
    /** The field's document identifier: a UUID, new whenever the field gets a new document. */
    uint8_t document_identifier[16];
    /** Non-zero when the field holds any text, also outside the windows. */
    uint32_t has_text;
    /* The field's traits (UIKit's UITextInputTraits). Values are UIKit's raw values: UIKeyboardType,
       UIReturnKeyType, UITextAutocapitalizationType, UITextAutocorrectionType,
       UITextSpellCheckingType. */
    uint32_t keyboard_type;
    uint32_t return_key_type;
    uint32_t autocapitalization_type;
    uint32_t autocorrection_type;
    uint32_t spell_checking_type;
    /** Non-zero for a secure field (passwords, PINs). */
    uint32_t secure_text_entry;
    uint32_t reserved0;
    /** UITextContentType's raw value ("oneTimeCode", "password", …); empty for none. */
    kbx_string text_content_type;
} kbx_text_snapshot;

/** Text input notifications, sent around a snapshot update (UIKit's UITextInputDelegate). */
typedef uint32_t kbx_text_event;
enum {
    KBX_TEXT_WILL_CHANGE = 1,
    KBX_TEXT_DID_CHANGE = 2,
    KBX_SELECTION_WILL_CHANGE = 3,
    KBX_SELECTION_DID_CHANGE = 4,
};

/** View lifecycle, in UIKit's order: did load, will appear, did appear, will disappear, did disappear. */
typedef uint32_t kbx_lifecycle_event;
enum {
    KBX_VIEW_DID_LOAD = 1,
    KBX_VIEW_WILL_APPEAR = 2,
    KBX_VIEW_DID_APPEAR = 3,
    KBX_VIEW_WILL_DISAPPEAR = 4,
    KBX_VIEW_DID_DISAPPEAR = 5,
};

/** What the user did to a key. */
typedef uint32_t kbx_key_action;
enum {
    /** A touch that went down and up on the key. */
    KBX_KEY_TAP = 1,
};

/**
 * A key event, by position: the key at `row`, `column` of sub-keyboard `sub_keyboard` of the layout
 * the extension returned from create_configuration (indices from 0). Secure keyboards shuffle what
 * each position shows, so the position is what the user chose, not a label.
 */
typedef struct kbx_key_event {
    uint32_t abi_version;
    uint32_t struct_size;
    kbx_key_action action;
    uint32_t sub_keyboard;
    uint32_t row;
    uint32_t column;
} kbx_key_event;

/* ---------------------------------------------------------------------------------------------- */
/* Extension -> host: the host API                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/**
 * Functions the host gives each instance. Every function takes `host` as its first argument.
 * Edits are posted (see 5. above): they return at once and take effect on a later turn.
 */
typedef struct kbx_host_api {
    uint32_t abi_version;
    uint32_t struct_size;
    /** The context to pass back. */
    kbx_host *host;
    /** Inserts text in place of the marked text, or else of the selection; the caret goes after it. */
    void (*insert_text)(kbx_host *host, const char *utf8, size_t length);
    /** Deletes the selection, or else the one Character before the cursor. */
    void (*delete_backward)(kbx_host *host);
    /** Moves the caret by a number of Characters from the end of the selection; negative moves
     *  back. Clamped to the document. Collapses the selection and commits marked text. */
    void (*adjust_text_position)(kbx_host *host, int64_t character_offset);
    /** Asks the host to switch to the next keyboard (the globe key). */
    void (*advance_to_next_input_mode)(kbx_host *host);
    /** Asks the host to hide the keyboard. */
    void (*dismiss_keyboard)(kbx_host *host);
    /**
     * Tells the host of a failure, in one line of UTF-8 meant for the user. The host shows it with the
     * extension's name; it does not stop the extension.
     */
    void (*report_error)(kbx_host *host, const char *utf8, size_t length);
    /**
     * Replaces the marked text (or else the selection) with `utf8`, marks it, and selects
     * `selected_length` Characters from `selected_location` within it (Characters from the start of
     * the marked text; clamped). Empty text removes the marked text. (UIKit counts UTF-16 units here;
     * this ABI counts Characters, like every other offset.)
     */
    void (*set_marked_text)(kbx_host *host, const char *utf8, size_t length, int64_t selected_location,
                            int64_t selected_length);
    /** Commits the marked text: it stays, no longer marked. */
    void (*unmark_text)(kbx_host *host);
} kbx_host_api;

/* ---------------------------------------------------------------------------------------------- */
/* The descriptor                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/** Receives the configuration document; see create_configuration. */
typedef void (*kbx_configuration_sink)(void *sink_context, const char *json_utf8, size_t length);

/**
 * What the entry returns. Identity strings are NUL-terminated UTF-8 and static. Every callback is
 * required (non-NULL).
 */
typedef struct kbx_extension_descriptor {
    uint32_t abi_version;
    uint32_t struct_size;
    /** Reverse-DNS identifier, e.g. "com.example.keyboard.hello": at least two dot-separated labels
     *  of ASCII letters, digits and '-', not starting with '-'. */
    const char *identifier;
    /** The name users see, e.g. "Hello Keyboard". */
    const char *name;
    /** Semantic version, MAJOR.MINOR.PATCH with optional -prerelease and +build parts. */
    const char *version;

    /**
     * Creates a fresh instance (on iOS, a new UIInputViewController: one per appearance, never reused).
     * `descriptor` is the descriptor this callback was read from, so one image may export several.
     * `settings_json` is a JSON object of host settings for this extension ("{}" when there are none).
     * Returns NULL on failure, after calling host->report_error.
     * `host` and the functions in it stay valid until destroy_instance returns.
     */
    kbx_instance *(*create_instance)(const struct kbx_extension_descriptor *descriptor,
                                     const kbx_host_api *host,
                                     const char *settings_json, size_t settings_length);

    /** Destroys an instance. The host makes no call with it afterwards. */
    void (*destroy_instance)(kbx_instance *instance);

    /**
     * Asks the instance for its configuration (layout, license, typing, appearance), as one JSON
     * document passed to `sink` before returning; the schema is the KeyboardConfiguration type of
     * the KeyboardModel module. Called once per instance, after create_instance and before
     * KBX_VIEW_DID_LOAD. KBX_STATUS_NOT_CONFIGURED means the extension did not implement it.
     */
    kbx_status (*create_configuration)(kbx_instance *instance, kbx_configuration_sink sink,
                                       void *sink_context);

    /** A view lifecycle event. */
    void (*lifecycle)(kbx_instance *instance, kbx_lifecycle_event event);

    /** A text input notification. Will-events come before the snapshot update, did-events after. */
    void (*text_input)(kbx_instance *instance, kbx_text_event event);

    /** The new state of the text field. The extension's proxy answers from it from now on. */
    void (*update_snapshot)(kbx_instance *instance, const kbx_text_snapshot *snapshot);

    /** A key event. */
    kbx_status (*key_event)(kbx_instance *instance, const kbx_key_event *event);
} kbx_extension_descriptor;

/** The type of KBX_ENTRY_SYMBOL. */
typedef const kbx_extension_descriptor *(*kbx_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* KEYBOARD_EXTENSION_ABI_H */
