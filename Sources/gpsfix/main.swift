import GPSFixCLI

GPSFixCLI.runAndExit(CommandLine.arguments)
