/// The bash completion script: `_gpsfix`, registered for `gpsfix`. It needs bash alone (not
/// the bash-completion package's helpers), so `source <(gpsfix completion bash)` works anywhere.
enum BashCompletion {
    static var script: String {
        let names = Commands.all.map(\.name).joined(separator: " ")
        var text = """
        # bash completion for gpsfix, made by 'gpsfix completion bash' from its table of commands.

        _gpsfix_files() {
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        }

        # Ports that may be receivers, as 'gpsfix devices' searches; any path when none matches.
        _gpsfix_devices() {
            local port ports=()
            for port in /dev/gps* /dev/serial/by-id/* /dev/ttyACM* /dev/ttyUSB*; do
                [[ -e $port ]] && ports+=("$port")
            done
            mapfile -t COMPREPLY < <(compgen -W "${ports[*]}" -- "$cur")
            ((${#COMPREPLY[@]})) || _gpsfix_files
        }

        _gpsfix() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
            # --name=value: bash splits at '=' (COMP_WORDBREAKS), the option is before it.
            if [[ $cur == = ]]; then cur=; fi
            if [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi
            COMPREPLY=()
            local command=fix first=1
            case ${COMP_WORDS[1]} in
                \(names.replacing(" ", with: "|"))) command=${COMP_WORDS[1]}; first=2 ;;
                help) mapfile -t COMPREPLY < <(compgen -W "\(names)" -- "$cur"); return ;;
            esac
            if ((COMP_CWORD == 1)) && [[ $cur != -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "\(names) help" -- "$cur")
                return
            fi
            local options repeatable= extra=
            case $command in

        """
        for command in Commands.all { text += block(command) }
        text += """
            esac
            ((COMP_CWORD == 1)) && extra='--version --man'
            if [[ $cur == -* ]]; then
                # What was given already is not offered again, unless it may repeat.
                local word given=' ' offer=()
                for word in "${COMP_WORDS[@]:first:COMP_CWORD-first}"; do given+="${word%%=*} "; done
                for word in $options; do
                    [[ $given == *" $word "* && " $repeatable " != *" $word "* ]] || offer+=("$word")
                done
                mapfile -t COMPREPLY < <(compgen -W "${offer[*]} $extra" -- "$cur")
            fi
        }

        complete -F _gpsfix gpsfix

        """
        return text
    }

    /// One command's case: its value options complete their values, then its positionals,
    /// then its options (when the word starts with '-').
    private static func block(_ command: Command) -> String {
        let shown = command.options.filter { !$0.isHidden }
        var text = "        \(command.name))\n"
        text += "            options='\((shown.map(\.name) + ["--help"]).joined(separator: " "))'\n"
        let repeatable = shown.filter(\.isRepeatable).map(\.name)
        if !repeatable.isEmpty { text += "            repeatable='\(repeatable.joined(separator: " "))'\n" }
        let valued = shown.filter { $0.value != nil }
        if !valued.isEmpty {
            text += "            case $prev in\n"
            for option in valued {
                // An optional value is only taken when it does not look like an option.
                let guardOptional = option.valueIsOptional ? "[[ $cur == -* ]] || " : ""
                text += "                \(option.name)) \(guardOptional){ \(action(option.valueCompletion)); return; } ;;\n"
            }
            text += "            esac\n"
        }
        if command.positionals > 0 {
            text += "            [[ $cur == -* ]] || { \(action(command.operands)); return; }\n"
        }
        text += "            ;;\n"
        return text
    }

    private static func action(_ completion: ValueCompletion?) -> String {
        switch completion {
        case .files: "_gpsfix_files"
        case .devices: "_gpsfix_devices"
        case .words(let words): "mapfile -t COMPREPLY < <(compgen -W '\(words.joined(separator: " "))' -- \"$cur\")"
        case nil: ":"
        }
    }
}
