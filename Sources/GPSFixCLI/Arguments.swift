/// A small, table-driven argument parser: each command lists its options, and the parser
/// checks what the user typed against that table. No outside package can be fetched here, and
/// a table is all a handful of commands needs.
struct OptionSpec: Sendable {
    /// `--speed`
    let name: String
    /// The value's placeholder in help (`FILE`, `X|max`); nil for a flag.
    let value: String?
    let help: String
    /// The value may be left out (`--gpsd` alone means the default); it is then "".
    var valueIsOptional = false
    /// Parsed but left out of help: an option the command refuses with a reason of its own,
    /// which beats "unknown option" for a flag another command takes.
    var isHidden = false
    /// May be given more than once, each value kept (`ParsedArguments.all`). Otherwise a second
    /// value is a usage error: silently keeping the last one hid the first from whoever typed it.
    var isRepeatable = false
    /// What the shell completions offer for the value.
    var completion: ValueCompletion?
    /// The alternatives it is one of in the usage line (`[--json | --nmea | …]`): options
    /// naming one choice are shown in one bracket, in table order.
    var usageChoice: String?
    /// The option it goes with, inside whose brackets the usage line shows it
    /// (`--device PATH [--baud N]`).
    var usageParent: String?

    static func flag(_ name: String, _ help: String) -> OptionSpec { OptionSpec(name: name, value: nil, help: help) }
    static func value(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: placeholder, help: help)
    }

    static func hidden(_ name: String) -> OptionSpec { OptionSpec(name: name, value: nil, help: "", isHidden: true) }

    static func optionalValue(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: placeholder, help: help, valueIsOptional: true)
    }

    func repeatable() -> OptionSpec {
        var spec = self
        spec.isRepeatable = true
        return spec
    }

    /// Shown in the usage line as one of the alternatives named `choice`.
    func among(_ choice: String) -> OptionSpec {
        var spec = self
        spec.usageChoice = choice
        return spec
    }

    /// Shown in the usage line inside `parent`'s brackets.
    func inside(_ parent: String) -> OptionSpec {
        var spec = self
        spec.usageParent = parent
        return spec
    }

    func completing(_ kind: ValueCompletion) -> OptionSpec {
        var spec = self
        spec.completion = kind
        return spec
    }

    /// What completes the value: as set, else what the placeholder says (`FILE` and `PATH` are
    /// files; the lower-case words of `X|max` are themselves); nil for a flag or free text.
    var valueCompletion: ValueCompletion? {
        guard let value else { return nil }
        if let completion { return completion }
        if ["FILE", "PATH", "DIR"].contains(value) { return .files }
        let words = value.split(separator: "|").map(String.init).filter { $0.allSatisfy(\.isLowercase) }
        return words.isEmpty ? nil : .words(words)
    }
}

/// What a shell offers when completing an option's value.
enum ValueCompletion: Equatable, Sendable {
    case files
    /// Serial ports that may be receivers: /dev/gps*, /dev/serial/by-id/*, ttyACM*, ttyUSB*.
    case devices
    case words([String])
}

struct ParsedArguments: Sendable {
    /// Each value option's value (for a repeatable one, the last).
    var values: [String: String] = [:]
    /// Every value of a repeatable option, in the order given.
    var repeated: [String: [String]] = [:]
    /// Every value option as given, in order across options (`--device A --replay B`).
    var sequence: [(option: String, value: String)] = []
    var flags: Set<String> = []
    var positionals: [String] = []
    var wantsHelp = false

    subscript(name: String) -> String? { values[name] }
    /// Every value given for `name`: several for a repeatable option, else one or none.
    func all(_ name: String) -> [String] { repeated[name] ?? values[name].map { [$0] } ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The values of the options `names`, in the order they were given.
    func ordered(_ names: [String]) -> [(option: String, value: String)] {
        sequence.filter { names.contains($0.option) }
    }

    /// These arguments with only `option value` of the options `names` (one source of several).
    func keeping(_ option: String, _ value: String, of names: [String]) -> ParsedArguments {
        var one = self
        for name in names {
            one.values[name] = nil
            one.repeated[name] = nil
        }
        one.values[option] = value
        one.sequence = sequence.filter { !names.contains($0.option) } + [(option, value)]
        return one
    }
}

/// A mistake in how a command was called: reported with the command's usage, exit 64.
struct UsageError: Error, Equatable, CustomStringConvertible {
    let message: String
    var description: String { message }
}

enum ArgumentParser {
    static func parse(_ arguments: [String], options: [OptionSpec], positionals maximum: Int) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if argument == "--help" || argument == "-h" {
                parsed.wantsHelp = true
                continue
            }
            if argument == "--" {
                // Everything after `--` is positional, and counts against the maximum too.
                for rest in arguments[i...] {
                    guard parsed.positionals.count < maximum else {
                        throw UsageError(message: "unexpected argument '\(rest)'")
                    }
                    parsed.positionals.append(rest)
                }
                break
            }
            guard argument.hasPrefix("-"), argument.count > 1 else {
                guard parsed.positionals.count < maximum else {
                    throw UsageError(message: "unexpected argument '\(argument)'")
                }
                parsed.positionals.append(argument)
                continue
            }
            var name = argument
            var inline: String?
            if let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                inline = String(argument[argument.index(after: eq)...])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                let known = options.map(\.name).filter { $0.hasPrefix(String(name.prefix(4))) }
                let hint = known.isEmpty ? "" : " (did you mean \(known.joined(separator: " or "))?)"
                throw UsageError(message: "unknown option '\(name)'\(hint)")
            }
            if let placeholder = spec.value {
                let value: String
                if let inline {
                    value = inline
                } else if spec.valueIsOptional && (i == arguments.count || arguments[i].hasPrefix("-")) {
                    value = ""
                } else if i < arguments.count {
                    value = arguments[i]
                    i += 1
                } else {
                    throw UsageError(message: "\(spec.name) needs a value (\(placeholder))")
                }
                if let earlier = parsed.values[spec.name], !spec.isRepeatable {
                    throw UsageError(message: "\(spec.name) given twice ('\(earlier)', then '\(value)'): it takes one \(placeholder)")
                }
                parsed.values[spec.name] = value
                parsed.sequence.append((spec.name, value))
                if spec.isRepeatable { parsed.repeated[spec.name, default: []].append(value) }
            } else {
                guard inline == nil else { throw UsageError(message: "\(spec.name) takes no value") }
                parsed.flags.insert(spec.name)
            }
        }
        return parsed
    }
}
