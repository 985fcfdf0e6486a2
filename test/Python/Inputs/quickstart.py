import numpy as np
import tcuc

print(tcuc.segment_cumsum(np.arange(10, dtype=np.float32), 3))
