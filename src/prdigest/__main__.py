import sys

from prdigest.cli import main

sys.exit(main())
