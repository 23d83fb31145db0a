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
 *    struct of that version's first revision. Later revisions only append fields, so a reader must
 *    check struct_size before reading a field that was appended after the revision it was built with
 *    (KBX_HAS_FIELD below). Revisions of version 1:
 *      1  the first.
 *      2  kbx_host_api.now (the host's clock) and .schedule_repeating_timer;
 *         kbx_extension_descriptor.cancel_command. What happens to calls made during and after
 *         destroy_instance is now specified (section 9).
 *      3  kbx_text_snapshot.platform and .platform_traits (section 10); selection_location and
 *         selection_length are -1 under a platform without section 7's extras.
 *      4  kbx_host_api.play_input_click.
 *      5  key gestures (section 11): kbx_key_event's actions KBX_KEY_DOWN to KBX_KEY_DRAG and its
 *         fields .callout, .repeat_count, .drag_x, .drag_y; kbx_extension_descriptor.key_gestures;
 *         a layout key's "callouts". kbx_host_api.show_input_mode_list; kbx_text_snapshot
 *         .primary_language; the settings' "environment".
 *    The JSON that crosses (settings, the configuration, set_layout, report_event, command answers)
 *    follows the same rule: a later revision may add keys, never change or remove one. So a reader
 *    ignores keys it does not know, and a key a writer leaves out takes its default (every key a
 *    revision adds is optional). The host and this SDK read that way (and keep files a user writes
 *    strict, where an unknown key is a typo); a C extension should too.
 *
 * 3. Threads and re-entrancy
 *    The host calls every callback from its main dispatch queue (where Swift's main actor runs), one
 *    at a time. An extension calls the host API (kbx_host_api) from there too, inside a callback or
 *    later from work it scheduled on the main queue. A call from another thread is not an error: the
 *    host copies its arguments before the call returns and moves it to its main queue, where it takes
 *    effect later, in the order such calls were made; `now` alone answers at once, from any thread.
 *    (On Linux the main queue is not always drained by the process's first thread: once the host is
 *    in dispatch_main(), a worker thread drains it.)
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
 *    Edits posted in one turn are applied together, then the host pushes one snapshot. Every turn
 *    that applied posted operations ends with a snapshot, even when nothing changed (the notifications
 *    come only with changes): the snapshot's `operations_applied` is the acknowledgement.
 *
 * 6. Units
 *    Offsets and counts are Characters: Unicode extended grapheme clusters. The host never leaves the
 *    cursor inside a cluster.
 *
 * 7. Beyond UIKit
 *    iOS gives a keyboard only the windows around the cursor. A walker that reads or deletes the whole
 *    document from windows alone cannot be exact (under a sentence window, "...." with the caret at 0
 *    and at 1 looks the same), so this host also reports where the selection is (`selection_location`,
 *    `selection_length`) and how many operations it applied, and takes guarded absolute moves and
 *    deletions (`set_selected_range`, `delete_range`, as Android's InputConnection has), which it skips
 *    when the field changed since the snapshot the extension saw. The SDK's full-document reader is
 *    built on these; keyboards ported from iOS need not use them. They exist only where the snapshot's
 *    platform_traits has KBX_PLATFORM_HAS_EXTRAS (section 10): elsewhere the selection's position is
 *    -1 and the host skips set_selected_range and delete_range (each still counts as applied).
 *
 * 8. Time
 *    An extension never measures time itself. What it waits for comes from the host: a snapshot, the
 *    acknowledgement of its posted edits (operations_applied), or a timer on the host's clock
 *    (schedule_timer, read with now). A host on real time (an interactive one) runs that clock on the
 *    machine's monotonic clock. A host on virtual time (a test host, a batch run) moves it only when
 *    nothing else can run, so a timeout never fires because the machine was busy, and a test moves
 *    time by hand. Sleeping on a clock of the extension's own (a thread, usleep, a real-time timer)
 *    keeps to real time: such a host neither waits for it nor moves it.
 *
 * 9. The end of an instance
 *    From the moment the host calls destroy_instance, it ignores every call made with that
 *    instance's `host` context: edits, requests, reports and answers are dropped; a timer is neither
 *    scheduled nor fired. A timer the instance scheduled earlier never fires once destroy_instance has
 *    been called, and a call made earlier from another thread that reaches the main queue after it is
 *    dropped too. A command the instance had not answered is answered by the host ("hidden").
 *
 * 10. Platforms (revision 3)
 *    A host may behave as a platform does (its profile: iOS, Android, a Wayland compositor), so that a
 *    keyboard tested here behaves as it will there. Each snapshot says which (`platform`) and what
 *    that changes for the extension (`platform_traits`): whether adjust_text_position counts UTF-16
 *    units rather than Characters, whether delete_backward deletes one UTF-16 unit rather than a
 *    Character, and whether section 7's extras exist. Everything else in this header holds under
 *    every platform: in particular every turn that applied posted operations still ends with a
 *    snapshot whose operations_applied acknowledges them (the platform's own update after an edit:
 *    Android's onUpdateSelection, Wayland's done, the refresh of iOS's proxy).
 *
 * 11. Key gestures (revision 5)
 *    A quick touch of a key is one KBX_KEY_TAP, as it always was. Any other touch is a gesture: one
 *    KBX_KEY_DOWN, then what the finger does, then one KBX_KEY_UP, all on the same key, at the times of
 *    the host's clock (section 8) at which they happen. The host sends gestures only to an extension
 *    whose descriptor has a non-zero `key_gestures`; to any other it sends taps alone (and refuses to
 *    its user a gesture it cannot send), so an extension built against an earlier revision behaves as
 *    it did. While the finger is down:
 *      - a key with callouts (the layout key's "callouts": the secondary values shown on long-press,
 *        as iOS shows é è ê ë above e) gets KBX_KEY_LONG_PRESS once the finger has been still for
 *        KBX_LONG_PRESS_DELAY_NS; the host shows the callouts, and the KBX_KEY_UP that ends the touch
 *        says in `callout` which one the finger was lifted on (an index into "callouts"; -1 for none);
 *      - a key without callouts gets KBX_KEY_REPEAT once the finger has been still for
 *        KBX_REPEAT_DELAY_NS and again every KBX_REPEAT_INTERVAL_NS, with `repeat_count` 1, 2, …; an
 *        extension repeats what it wants to (delete) and ignores the rest (letters);
 *      - a finger that moves gets KBX_KEY_DRAG for each step, with `drag_x` and `drag_y` the steps it
 *        has moved from where it went down (right and down positive). A step is what the key moves by:
 *        one Character for the space bar's caret drag. A finger that has moved neither long-presses
 *        nor repeats.
 *    What a gesture does is the extension's to decide; the events only say what the finger did. The
 *    KBX_KEY_UP of a touch that neither long-pressed, repeated nor moved is the end of a press as long
 *    as a tap (an extension may treat it as one).
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

/** The revision of version 1 this header describes (section 2). */
#define KBX_ABI_REVISION 5u

/**
 * Whether a struct that arrived with `struct_size` bytes has `field` (section 2): true when the
 * field ends within them. For example KBX_HAS_FIELD(kbx_host_api, api->struct_size, now).
 */
#define KBX_HAS_FIELD(type, struct_size, field) \
    ((size_t)(struct_size) >= offsetof(type, field) + sizeof(((type *)0)->field))

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
    /** How many operations this instance posted that the host has applied, as of this snapshot. A
     *  snapshot that does not raise it was caused by something else (the user, a new document). */
    uint64_t operations_applied;
    /** Where the selection starts, in Characters from the start of the document (section 7); -1 where
     *  the platform does not say (section 10). */
    int64_t selection_location;
    /** The selection's length in Characters; 0 for a caret. -1 when selection_location is. */
    int64_t selection_length;

    /* Revision 3 (check KBX_HAS_FIELD before use). */

    /** The platform the host behaves as (KBX_PLATFORM_*, section 10). */
    uint32_t platform;
    /** What that platform changes (KBX_PLATFORM_* flags below, section 10). */
    uint32_t platform_traits;

    /* Revision 5 (check KBX_HAS_FIELD before use). */

    /** The BCP 47 language the field asks for ("fr-FR", as an app's UIResponder.textInputMode), or
     *  empty for the keyboard's own (the settings' "environment"."primaryLanguage"). */
    kbx_string primary_language;
} kbx_text_snapshot;

/** kbx_text_snapshot.platform: the platform a host behaves as (section 10). */
typedef uint32_t kbx_platform;
enum {
    /** This host's own model: every offset counts Characters; section 7 exists. */
    KBX_PLATFORM_EXACT = 0,
    KBX_PLATFORM_IOS = 1,
    KBX_PLATFORM_ANDROID = 2,
    KBX_PLATFORM_WAYLAND = 3,
};

/** kbx_text_snapshot.platform_traits: flags. */
enum {
    /** adjust_text_position's offset counts UTF-16 code units (iOS, Android), not Characters. */
    KBX_PLATFORM_MOVES_UTF16 = 1u << 0,
    /** delete_backward with nothing selected deletes one UTF-16 code unit (Android), not a Character. */
    KBX_PLATFORM_DELETES_UTF16 = 1u << 1,
    /** Section 7's extras exist: the selection's position, set_selected_range, delete_range. */
    KBX_PLATFORM_HAS_EXTRAS = 1u << 2,
};

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
    /* Revision 5: a gesture (section 11), sent only when the descriptor's key_gestures is non-zero. */
    /** A finger went down on the key and stays: a gesture begins. */
    KBX_KEY_DOWN = 2,
    /** The finger lifted: the gesture ends. `callout` says which callout it lifted on, if any. */
    KBX_KEY_UP = 3,
    /** The finger has been still on a key with callouts for KBX_LONG_PRESS_DELAY_NS. */
    KBX_KEY_LONG_PRESS = 4,
    /** The finger is still down on a key without callouts: the `repeat_count`th repeat. */
    KBX_KEY_REPEAT = 5,
    /** The finger moved: it is `drag_x`, `drag_y` steps from where it went down. */
    KBX_KEY_DRAG = 6,
};

/** Section 11's timing, on the host's clock, in nanoseconds (UIKit's long-press 0.5 s; iOS's delete
 *  repeats after 0.5 s, ten times a second). */
#define KBX_LONG_PRESS_DELAY_NS 500000000ull
#define KBX_REPEAT_DELAY_NS 500000000ull
#define KBX_REPEAT_INTERVAL_NS 100000000ull

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

    /* Revision 5 (check KBX_HAS_FIELD before use; a host sends gestures only with them). */

    /** KBX_KEY_UP after KBX_KEY_LONG_PRESS: the index of the callout the finger lifted on in the key's
     *  "callouts"; -1 for none (it lifted where it began, or off the callouts). -1 for other actions. */
    int32_t callout;
    /** KBX_KEY_REPEAT: 1 for the first repeat, then 2, 3, …; 0 for other actions. */
    uint32_t repeat_count;
    /** KBX_KEY_DRAG, and the KBX_KEY_UP after it: the steps the finger has moved from where it went
     *  down, right (x) and down (y) positive; 0 otherwise. */
    int32_t drag_x;
    int32_t drag_y;
} kbx_key_event;

/** The shift key's state. */
typedef uint32_t kbx_shift_state;
enum {
    KBX_SHIFT_OFF = 0,
    /** The next letter is upper case, then shift goes off. */
    KBX_SHIFT_ON = 1,
    KBX_SHIFT_CAPS_LOCK = 2,
};

/** Commands the host's user can ask of an extension (kbx_extension_descriptor.host_command). */
typedef uint32_t kbx_host_command;
enum {
    KBX_COMMAND_READ_FULL_DOCUMENT = 1,
    KBX_COMMAND_DELETE_FULL_DOCUMENT = 2,
    KBX_COMMAND_MOVE_TO_BEGINNING = 3,
    KBX_COMMAND_MOVE_TO_END = 4,
};

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
    /** Deletes the selection, or else the one Character before the cursor (one UTF-16 unit under a
     *  platform with KBX_PLATFORM_DELETES_UTF16, section 10). */
    void (*delete_backward)(kbx_host *host);
    /** Moves the caret by a number of Characters from the end of the selection; negative moves
     *  back. Clamped to the document. Collapses the selection and commits marked text. Under a
     *  platform with KBX_PLATFORM_MOVES_UTF16 the number counts UTF-16 units (section 10); a move that
     *  would end inside a Character stops at the boundary before it, on the side it came from. */
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
    /**
     * Selects `length` Characters from `location` (absolute, clamped to the document; length 0 places
     * the caret) and commits marked text. With `if_snapshot` non-zero, the host applies it only if the
     * latest snapshot it pushed to this instance is still that one; otherwise it skips it (the
     * operation still counts as applied). Section 7.
     */
    void (*set_selected_range)(kbx_host *host, int64_t location, int64_t length, uint64_t if_snapshot);
    /**
     * Deletes `length` Characters from `location` (absolute, clamped) and puts the caret there;
     * guarded by `if_snapshot` as set_selected_range is. Section 7.
     */
    void (*delete_range)(kbx_host *host, int64_t location, int64_t length, uint64_t if_snapshot);
    /**
     * Answers a host command (kbx_extension_descriptor.host_command): `request` is the command's id,
     * `status` KBX_STATUS_OK or a failure, and `json` the result as a JSON object (the commands say
     * which). The host copies it before the call returns.
     */
    void (*command_finished)(kbx_host *host, uint64_t request, kbx_status status, const char *json,
                             size_t length);
    /**
     * Tells the host which sub-keyboard of the layout the keyboard shows now (an index into the
     * configuration's subKeyboards) and its shift state, so the host draws it and taps its keys.
     * Takes effect at once (it is not an edit of the field).
     */
    void (*set_keyboard_state)(kbx_host *host, uint32_t sub_keyboard, kbx_shift_state shift);
    /**
     * Replaces the layout the host draws and taps (a secure keyboard reshuffled its keys), as JSON of
     * the same schema as the configuration's "layout". Takes effect at once; the host checks it as it
     * checks the configuration, and reports a bad one without changing anything.
     */
    void (*set_layout)(kbx_host *host, const char *json, size_t length);
    /**
     * Tells the host of something that happened in the keyboard, for it to show or record, as a
     * delegate would be told on iOS (a secure keyboard's "key received", "passcode rule failed",
     * "authentication failed"; a count the keyboard worked out). `json` is an object:
     * {"name": "<what happened>", "details": {"<key>": "<text>", ...}}. The host copies it before the
     * call returns. Never put a secret in it: hosts show and log events.
     */
    void (*report_event)(kbx_host *host, const char *json, size_t length);
    /**
     * Asks the host to call `fire(timer)` once, on its main thread, after `delay_ns` nanoseconds of
     * the host's clock (section 8) — unless cancel_timer cancels it first or the instance is
     * destroyed. `timer` is the extension's own number for it; scheduling a number that is pending
     * replaces that timer. An extension's timeouts and periodic work go through here rather than a
     * clock of its own, so that they follow the host's time: a test host's virtual clock moves them as
     * it moves everything else, and they never fire while the host is busy elsewhere.
     */
    void (*schedule_timer)(kbx_host *host, uint64_t timer, uint64_t delay_ns, void (*fire)(uint64_t timer));
    /** Cancels a timer schedule_timer set and has not fired; unknown numbers are ignored. */
    void (*cancel_timer)(kbx_host *host, uint64_t timer);

    /* Revision 2 (check KBX_HAS_FIELD before use). */

    /**
     * The host's clock, in nanoseconds since the host began: the clock schedule_timer counts on.
     * Monotonic. On virtual time it moves only when the host moves it (section 8). May be called
     * from any thread.
     */
    uint64_t (*now)(kbx_host *host);
    /**
     * As schedule_timer, but `fire(timer)` runs after `delay_ns` and then every `interval_ns` (at
     * least 1 ms; less is taken as 1 ms) of the host's clock, until cancel_timer or the instance's
     * end: a keyboard's periodic work (a secure pad's reshuffle). A host may tell such background
     * timers from one-shot ones: a test host does not count them as work left undone at its end.
     */
    void (*schedule_repeating_timer)(kbx_host *host, uint64_t timer, uint64_t delay_ns, uint64_t interval_ns,
                                     void (*fire)(uint64_t timer));

    /* Revision 4 (check KBX_HAS_FIELD before use). */

    /**
     * Plays the key click, as UIKit's UIDevice.playInputClick(): the host plays it if its user wants
     * key clicks (kbhost: the typing options' keyFeedback.sound; the terminal's bell in the REPL), and
     * otherwise does nothing. A keyboard calls it for keys the host did not tap itself (a gesture it
     * recognized) — the host's own taps click by themselves.
     */
    void (*play_input_click)(kbx_host *host);

    /* Revision 5 (check KBX_HAS_FIELD before use). */

    /**
     * Shows the host's list of keyboards for its user to pick one, as UIKit's
     * handleInputModeList(from:with:) does on a long-press of the globe key (a tap advances:
     * advance_to_next_input_mode). The list is the settings' "environment"."inputModes".
     */
    void (*show_input_mode_list)(kbx_host *host);
} kbx_host_api;

/** The size of revision 1's kbx_host_api, the least a host may pass. */
#define KBX_HOST_API_MIN_SIZE offsetof(kbx_host_api, now)

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

    /**
     * A command from the host's user (the REPL, `kbhost run --action`), answered later, exactly once,
     * with kbx_host_api.command_finished and the same `request`. The command runs asynchronously;
     * keys and notifications keep arriving meanwhile. An extension that does not know a command
     * answers KBX_STATUS_FAILED with {"error": "unsupported"}.
     *
     * KBX_COMMAND_READ_FULL_DOCUMENT   -> {"before": "…", "after": "…", "selected": "…", "roundTrips": N,
     *                                     "exact": true|false}
     * KBX_COMMAND_DELETE_FULL_DOCUMENT -> {"deletedCharacters": N, "roundTrips": N, "exact": true|false}
     * "exact" (revision 3; optional) says whether the text, or the count, is certain: it need not be
     * under a platform without section 7's extras (section 10). Missing means true.
     * KBX_COMMAND_MOVE_TO_BEGINNING, KBX_COMMAND_MOVE_TO_END -> {"roundTrips": N}
     * On failure: {"error": "userCancelled" | "documentChanged" | "cancelled" | "operationInProgress" |
     *              "proxyUnresponsive" | "unsupported", "deletedCharacters": N}
     */
    void (*host_command)(kbx_instance *instance, kbx_host_command command, uint64_t request);

    /* Revision 2 (the host reads it only when struct_size covers it; it may be NULL). */

    /**
     * Asks the instance to stop a command it has not answered: the host gave up on it (its user
     * cancelled it, or it heard nothing from the extension for its command timeout) and has answered
     * it itself. The extension stops at once — it posts nothing more for that command — and may still
     * answer it; the host ignores the answer. Unknown or answered requests are ignored.
     */
    void (*cancel_command)(kbx_instance *instance, uint64_t request);

    /* Revision 5 (the host reads it only when struct_size covers it; 0 when it does not). */

    /** Non-zero if the extension takes key gestures (section 11): KBX_KEY_DOWN to KBX_KEY_DRAG. With
     *  0, the host sends it taps alone. */
    uint32_t key_gestures;
    uint32_t reserved0;
} kbx_extension_descriptor;

/** The size of revision 1's kbx_extension_descriptor, the least a host accepts. */
#define KBX_EXTENSION_DESCRIPTOR_MIN_SIZE offsetof(kbx_extension_descriptor, cancel_command)

/** The type of KBX_ENTRY_SYMBOL. */
typedef const kbx_extension_descriptor *(*kbx_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* KEYBOARD_EXTENSION_ABI_H */
