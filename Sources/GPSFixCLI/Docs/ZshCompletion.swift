/// The zsh completion function, `_gpsfix`: one `_arguments` spec per command, from its table.
/// Installed as `_gpsfix` on `$fpath` (`#compdef` tells compinit what it completes).
enum ZshCompletion {
    static var script: String {
        var text = """
        #compdef gpsfix
        # zsh completion for gpsfix, made by 'gpsfix completion zsh' from its table of commands.

        # Ports that may be receivers, as 'gpsfix devices' searches; any file when none matches.
        _gpsfix_devices() {
          local -a ports expl
          ports=(/dev/gps*(N) /dev/serial/by-id/*(N) /dev/ttyACM*(N) /dev/ttyUSB*(N))
          _wanted ports expl 'serial port' compadd -a ports || _files
        }

        _gpsfix() {
          local -a subcommands names
          subcommands=(

        """
        for command in Commands.all { text += "    \(quote(command.name + ":" + command.summary))\n" }
        text += """
          )
          names=(${subcommands%%:*})
          local command=fix
          if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then
            _describe -t commands 'gpsfix command' subcommands
            return
          fi
          # A command's name first: its own options follow, and _arguments sees it as the command.
          if (( CURRENT > 2 )) && (( ${names[(Ie)$words[2]]} )); then
            command=$words[2]
            shift words
            (( CURRENT-- ))
          fi
          case $command in

        """
        for command in Commands.all {
            text += "    \(command.name))\n      _arguments -S \\\n"
            for spec in specs(command) { text += "        \(quote(spec)) \\\n" }
            text += "        \(quote("(- *)--help[Show this help.]"))\n      ;;\n"
        }
        text += """
          esac
        }

        _gpsfix "$@"

        """
        return text
    }

    /// `_arguments` specs: `--name=[help]:VALUE:action` for a value (`::` when it may be left
    /// out), a leading `*` when it may repeat, then the positionals.
    private static func specs(_ command: Command) -> [String] {
        var specs: [String] = command.options.filter { !$0.isHidden }.map { option in
            let head = (option.isRepeatable ? "*" : "") + option.name
            let help = "[" + bracketed(firstSentence(option.help)) + "]"
            guard let value = option.value else { return head + help }
            let colons = option.valueIsOptional ? "::" : ":"
            return head + "=" + help + colons + escaped(value) + ":" + action(option.valueCompletion)
        }
        if command.positionals > 0 {
            let name = command.usage.split(separator: " ").dropFirst(2).first { $0.allSatisfy(\.isUppercase) } ?? "argument"
            specs.append(":" + escaped(String(name)) + ":" + action(command.operands))
        }
        return specs
    }

    private static func action(_ completion: ValueCompletion?) -> String {
        switch completion {
        case .files: "_files"
        case .devices: "_gpsfix_devices"
        case .words(let words): "(" + words.joined(separator: " ") + ")"
        case nil: " "
        }
    }

    /// Help up to the end of its first sentence: a completion list has one line for it.
    private static func firstSentence(_ help: String) -> String {
        guard let end = help.firstRange(of: ". ") else { return help.hasSuffix(".") ? String(help.dropLast()) : help }
        return String(help[..<end.lowerBound])
    }

    /// Inside `[...]`: brackets and backslashes escaped.
    private static func bracketed(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("[", with: "\\[").replacing("]", with: "\\]")
    }

    /// A value's name, where a colon would end it.
    private static func escaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing(":", with: "\\:")
    }

    /// One zsh word in single quotes.
    private static func quote(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
