import Glibc
import GPSFixCLI

exit(GPSFixCLI.main(CommandLine.arguments))
