import KeyboardExtensionABI

/// What kind of change the text field went through, which decides the notifications the extension
/// gets around the new snapshot. The table (UITextInputDelegate's four calls):
///
/// | change | what the extension gets, in order |
/// | --- | --- |
/// | text (insert, delete, set or commit marked text; by the extension or the user) | `textWillChange`, snapshot, `textDidChange` |
/// | selection only (caret moved, text selected) | `selectionWillChange`, snapshot, `selectionDidChange` |
/// | a new document (submitted, replaced) or new traits (another field) | `textWillChange`, `selectionWillChange`, snapshot, `selectionDidChange`, `textDidChange` |
/// | nothing (delete at the start, a move past an end, empty insert) | the extension's edits: the snapshot alone (the acknowledgement); the user's: nothing |
///
/// An operation changes text *and* moves the caret (inserting does); it is a text change. Under the
/// `exact` profile keyboards learn of their own edits through `textDidChange`; a platform may differ
/// (iOS does not tell them: ``PlatformProfile/notifiesOwnEdits``). Edits the extension posted in one
/// turn are applied together and answered with one snapshot, for the biggest change among them.
enum FieldChange: Equatable {
    case none
    case selection
    case text
    case document

    /// The state the kind of change is judged on.
    struct State: Equatable {
        let revision: UInt64
        let selection: Range<Int>
        let markedRange: Range<Int>?
        let documentIdentifier: UUID
        let traits: TextInputTraits

        init(_ field: TextField) {
            revision = field.revision
            selection = field.selection
            markedRange = field.markedRange
            documentIdentifier = field.documentIdentifier
            traits = field.traits
        }
    }

    init(from old: State, to new: State) {
        if old.documentIdentifier != new.documentIdentifier || old.traits != new.traits {
            self = .document
        } else if old.revision != new.revision || old.markedRange != new.markedRange {
            self = .text
        } else if old.selection != new.selection {
            self = .selection
        } else {
            self = .none
        }
    }

    /// Notifications before the snapshot.
    var before: [Int] {
        switch self {
        case .none: []
        case .selection: [KBX_SELECTION_WILL_CHANGE]
        case .text: [KBX_TEXT_WILL_CHANGE]
        case .document: [KBX_TEXT_WILL_CHANGE, KBX_SELECTION_WILL_CHANGE]
        }
    }

    /// Notifications after the snapshot.
    var after: [Int] {
        switch self {
        case .none: []
        case .selection: [KBX_SELECTION_DID_CHANGE]
        case .text: [KBX_TEXT_DID_CHANGE]
        case .document: [KBX_SELECTION_DID_CHANGE, KBX_TEXT_DID_CHANGE]
        }
    }
}

import Foundation
import KeyboardModel
