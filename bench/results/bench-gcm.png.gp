set terminal pngcairo size 1400,704 noenhanced background "white"
set output "bench/results/bench-gcm.png"
set linetype 1 lc rgb '#1f77b4'
set linetype 2 lc rgb '#d62728'
set linetype 3 lc rgb '#2ca02c'
set linetype 4 lc rgb '#ff7f0e'
set linetype 5 lc rgb '#9467bd'
set linetype 6 lc rgb '#8c564b'
set linetype 7 lc rgb '#e377c2'
set linetype 8 lc rgb '#17becf'
set linetype 9 lc rgb '#bcbd22'
set linetype 10 lc rgb '#7f7f7f'
set linetype 11 lc rgb '#000000'
set linetype 12 lc rgb '#aec7e8'
set linetype cycle 12
set datafile missing "NaN"
set logscale xy
set grid
set offsets graph 0.04, graph 0.04, 0, 0
set ylabel "MB/s (1 MB = 10^6 bytes)"
set key outside below Left reverse font ",9" maxrows 12
set xtics ("16" 16, "256" 256, "1K" 1024, "16K" 16384, "1M" 1048576)
set multiplot layout 1,2 title "GCM: MB/s vs bytes per message (new IV + 13-byte AAD + update + final + tag; backend auto, threads=1; dash-dot: default provider; SM4-CTR: our streamed yardstick)"
set title "encrypt"
plot "bench/results/bench-gcm.dat" using 1:2 with linespoints lt 1 dt 1 pt 5 lw 1.5 title "SM4-GCM auto", \
     "bench/results/bench-gcm.dat" using 1:3 with linespoints lt 2 dt 1 pt 5 lw 1.5 title "SM4-CTR auto streamed (yardstick)", \
     "bench/results/bench-gcm.dat" using 1:4 with linespoints lt 3 dt 4 pt 6 lw 1.5 title "AES-128-GCM default", \
     "bench/results/bench-gcm.dat" using 1:5 with linespoints lt 4 dt 1 pt 5 lw 1.5 title "AES-128-GCM auto", \
     "bench/results/bench-gcm.dat" using 1:6 with linespoints lt 5 dt 4 pt 6 lw 1.5 title "AES-192-GCM default", \
     "bench/results/bench-gcm.dat" using 1:7 with linespoints lt 6 dt 1 pt 5 lw 1.5 title "AES-192-GCM auto", \
     "bench/results/bench-gcm.dat" using 1:8 with linespoints lt 7 dt 4 pt 6 lw 1.5 title "AES-256-GCM default", \
     "bench/results/bench-gcm.dat" using 1:9 with linespoints lt 8 dt 1 pt 5 lw 1.5 title "AES-256-GCM auto"
set title "decrypt"
plot "bench/results/bench-gcm.dat" using 1:10 with linespoints lt 1 dt 1 pt 5 lw 1.5 title "SM4-GCM auto", \
     "bench/results/bench-gcm.dat" using 1:11 with linespoints lt 2 dt 1 pt 5 lw 1.5 title "SM4-CTR auto streamed (yardstick)", \
     "bench/results/bench-gcm.dat" using 1:12 with linespoints lt 3 dt 4 pt 6 lw 1.5 title "AES-128-GCM default", \
     "bench/results/bench-gcm.dat" using 1:13 with linespoints lt 4 dt 1 pt 5 lw 1.5 title "AES-128-GCM auto", \
     "bench/results/bench-gcm.dat" using 1:14 with linespoints lt 5 dt 4 pt 6 lw 1.5 title "AES-192-GCM default", \
     "bench/results/bench-gcm.dat" using 1:15 with linespoints lt 6 dt 1 pt 5 lw 1.5 title "AES-192-GCM auto", \
     "bench/results/bench-gcm.dat" using 1:16 with linespoints lt 7 dt 4 pt 6 lw 1.5 title "AES-256-GCM default", \
     "bench/results/bench-gcm.dat" using 1:17 with linespoints lt 8 dt 1 pt 5 lw 1.5 title "AES-256-GCM auto"
unset multiplot
